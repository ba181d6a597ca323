import { and, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import type { OrderEvent, OrderEvents } from '../events/orderEvents';

/**
 * The total counts of the staff order lists, kept per process between order events, so that a
 * page jump does not count 300,000 orders again (the pager places a deep page from its list's
 * count: server/orders/list.ts). A kept count is never trusted blindly:
 * - orders are only ever added (saveOrder) or changed through the lifecycle (transition.ts),
 *   and both publish an order event, which every process sharing the database receives;
 * - new orders are counted on every read: the orders past the highest id there was when the count
 *   was taken (`id > maxId`, a short walk of the primary key), so an order saved a moment ago is
 *   in the total even before its event arrives;
 * - a change of an order drops every kept count of a list a change can move orders in or out of
 *   (`changes`: one filtered by status, payment or arrival, the columns the lifecycle writes); a
 *   new order whose id is not past a kept count's maxId (it committed after orders with greater
 *   ids were counted) drops the counts it may be missing from;
 * - what no order event tells (a customer renamed, which a search matches; rows written by hand)
 *   is bounded by an age: a count is taken again after KEPT_MS.
 * Without followOrderCounts (a database handle with no events, as the benches' direct calls), every
 * read counts.
 */
const KEPT_MS = 30_000;
const MAX_KEPT = 500;

interface Kept { count: number; maxId: number; at: number; changes: boolean }

interface Followed {
  kept: Map<string, Kept>;
  /** Moves on every change: a count read across one is not kept. */
  generation: number;
  /** The ids of new orders announced while a count was being read, one list per read. */
  reads: Set<number[]>;
}

const followed = new WeakMap<Db, Followed>();

/**
 * Keeps counts for this database handle while its order events are followed. The returned events
 * are the ones to publish through: a change published by this process drops the kept counts before
 * its notification leaves, so the caller's next read (a board refreshing after its own action) is
 * counted anew even where the notification comes back later (PostgreSQL's NOTIFY). Other processes'
 * changes arrive as notifications.
 */
export function followOrderCounts(db: Db, events: OrderEvents): { events: OrderEvents; stop(): void } {
  const state: Followed = { kept: new Map(), generation: 0, reads: new Set() };
  followed.set(db, state);
  const saw = (event: Pick<OrderEvent, 'type' | 'orderId'>) => {
    if (event.type === 'order.changed') {
      state.generation++;
      for (const [key, kept] of state.kept) if (kept.changes) state.kept.delete(key);
      return;
    }
    for (const read of state.reads) read.push(event.orderId);
    for (const [key, kept] of state.kept) if (event.orderId <= kept.maxId) state.kept.delete(key);
  };
  const unsubscribe = events.subscribe(saw);
  return {
    events: {
      publish: (event) => { saw(event); return events.publish(event); },
      subscribe: (listener, resume) => events.subscribe(listener, resume),
      close: () => events.close(),
    },
    stop: () => { unsubscribe(); if (followed.get(db) === state) followed.delete(db); },
  };
}

/** The number of orders matching `where`, counted now. */
export async function countOrders(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where);
  return Number(row.n);
}

/** The total of a staff list: kept (plus the orders added since) while nothing changed, else counted. */
export async function keptOrderCount(db: Db, where: SQL | undefined, opts: { changes: boolean }): Promise<number> {
  const state = followed.get(db);
  if (!state) return countOrders(db, where);
  const { sql: text, params } = db.select({ n: sql`1` }).from(orders).where(where).toSQL();
  const key = `${text}\u0000${JSON.stringify(params)}`;
  const kept = state.kept.get(key);
  const now = Date.now();
  const fresh = kept && now - kept.at < KEPT_MS ? kept : undefined;
  const generation = state.generation;
  const announced: number[] = [];
  state.reads.add(announced);
  try {
    // Kept: only the orders past its maxId are read. Else the whole count, with the highest id at that moment.
    const read = await countWithMaxId(db, fresh ? and(gt(orders.id, fresh.maxId), where) : where);
    const count = (fresh?.count ?? 0) + read.count;
    const maxId = Math.max(fresh?.maxId ?? 0, read.maxId);
    // Kept only if no order changed meanwhile and no order announced meanwhile could be missing from the read.
    if ((!opts.changes || state.generation === generation) && announced.every((id) => id > maxId) && (!fresh || state.kept.get(key) === fresh)) {
      state.kept.delete(key);
      if (state.kept.size >= MAX_KEPT) state.kept.delete(state.kept.keys().next().value!);
      state.kept.set(key, { count, maxId, at: fresh?.at ?? now, changes: opts.changes });
    }
    return count;
  } finally {
    state.reads.delete(announced);
  }
}

/** The count, and the highest order id in the same snapshot (every order's, not only the matching ones'). */
async function countWithMaxId(db: Db, where: SQL | undefined): Promise<{ count: number; maxId: number }> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, maxId: sql<number>`(select coalesce(max(${orders.id}), 0) from ${orders})` })
    .from(orders)
    .where(where);
  return { count: Number(row.n), maxId: Number(row.maxId) };
}
