import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './client';
import type { OrderEvents } from '../events/orderEvents';

export interface UpkeepOptions {
  /** How often the upkeep looks whether a round is due. */
  periodMs?: number;
  /** A round waits until no order event came for this long (PGlite's one connection is held meanwhile). */
  quietMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * What autovacuum does for PostgreSQL, for the embedded PGlite, which has none: once the orders
 * have changed by a tenth since the last round (autovacuum's own default scale factor, counted
 * here from the order events, as PGlite's statistics counters are not flushed), and the order
 * stream has been quiet for a moment, `vacuum (analyze)` the orders and their items. Without it a
 * long-lived `npm start` keeps the planner's first statistics (taken on an empty table) and its
 * index-only scans visit the heap for every row: the staff lists' plans and counts depend on both.
 * The vacuum skips the pages already all-visible, so a round costs what changed since the last.
 * A database never analyzed (a restored dump) gets its round at the first look.
 */
export function startUpkeep(database: Database, events: OrderEvents, opts: UpkeepOptions = {}) {
  const periodMs = opts.periodMs ?? 60_000;
  const quietMs = opts.quietMs ?? 5_000;
  let changed = 0;
  let lastEventAt = 0;
  let running: Promise<void> | null = null;
  const unsubscribe = events.subscribe(() => { changed++; lastEventAt = Date.now(); });

  const round = async () => {
    if (Date.now() - lastEventAt < quietMs) return;
    const [row] = rowsOf<{ tuples: number }>(await database.db.execute(sql`select reltuples::float8 as tuples from pg_class where oid = 'orders'::regclass`));
    const tuples = Number(row?.tuples ?? -1);
    if (tuples >= 0 && changed < 50 + 0.1 * tuples) return;
    const seen = changed;
    await database.db.execute(sql`vacuum (analyze) orders, order_items`);
    changed -= seen;
  };
  const timer = setInterval(() => {
    running ??= round().catch((err) => opts.onError?.(err)).finally(() => { running = null; });
  }, periodMs);
  timer.unref();
  return {
    /** One round now if due (tests, benches). */
    runNow: async () => { await running; await round(); },
    async stop() { clearInterval(timer); unsubscribe(); await running; },
  };
}
