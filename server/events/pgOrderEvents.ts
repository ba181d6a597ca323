import type { Database } from '../db/client';
import { listenOn, type Listening } from '../db/listen';
import type { OrderEvent, OrderEvents, ResumeFrom } from './orderEvents';
import { ORDER_EVENTS_CHANNEL } from './orderEventRow';

export { ORDER_EVENTS_CHANNEL } from './orderEventRow';

export interface PgOrderEventsOptions {
  /**
   * How long a missing id holds back the events after it. Ids are drawn before their rows commit,
   * so on PostgreSQL id 11 can be visible while id 10 is still committing: the reader waits for 10
   * (its commit wakes it) and gives an id up only after this long (its statement failed).
   */
  gapWaitMs?: number;
  /** Events older than this are pruned (hourly); a subscriber resuming from before then is told to reset. */
  retentionMs?: number;
}

export const ORDER_EVENT_GAP_WAIT_MS = 5_000;
export const ORDER_EVENTS_RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rows read at a time, by the reader and by a resume. */
const PAGE = 500;

type Listener = (event: OrderEvent) => void;
interface Row { id: string | number; type: string; order_id: number; branch_id: number; brand_id: number; payload: unknown; at: string | Date }

const COLUMNS = 'id, type, order_id, branch_id, brand_id, payload, at';

/**
 * The OrderEvents port over an `order_events` table, woken by PostgreSQL LISTEN/NOTIFY (issue 26).
 * Every process sharing the database sees every order event, and a subscriber that reconnects,
 * to any process, resumes after its last event id (ARCHITECTURE.md: subscriptions never fan out
 * through one process's memory).
 *
 * - Publishing is one statement: it appends the event's row and `pg_notify`s its id (delivered at
 *   commit). The notification carries nothing else, so no event is too big for NOTIFY's 8 KB, and
 *   a notification that is lost (the LISTEN connection was down) loses nothing: the rows are read.
 * - Each process holds one dedicated LISTEN connection outside the pool, shared with the callers'
 *   changes (server/db/listen.ts; PGlite has its own listen()), and on every wake, and on every reconnection, reads the rows after the last id it
 *   delivered and hands them to its local subscribers in id order, its own events included. A
 *   missing id holds back the later ones until it commits, or for `gapWaitMs` (see there).
 * - `subscribe(listener, { after })` first replays the rows after `after` up to what this process
 *   has delivered, then the live ones, each once; events already pruned make it call `reset()`.
 */
export async function pgOrderEvents(database: Pick<Database, 'kind' | 'client'>, opts: PgOrderEventsOptions = {}): Promise<OrderEvents> {
  const channel = ORDER_EVENTS_CHANNEL;
  const gapWaitMs = opts.gapWaitMs ?? ORDER_EVENT_GAP_WAIT_MS;
  const retentionMs = opts.retentionMs ?? ORDER_EVENTS_RETENTION_MS;
  const query = async <T = Row>(text: string, params: unknown[]): Promise<T[]> => database.kind === 'pglite'
    ? (await (database.client as import('@electric-sql/pglite').PGlite).query<T & object>(text, params)).rows
    : (await (database.client as import('pg').Pool).query<T & object>(text, params)).rows;

  const listeners = new Set<Listener>();
  let closed = false;
  /** The last id delivered to the local subscribers: every event up to it was delivered or given up. */
  const [{ id: start }] = await query<{ id: string | number }>('select coalesce(max(id), 0) as id from order_events', []);
  let delivered = Number(start);
  /** Rows read (or published here) after `delivered`, waiting for the ids before them. */
  const waiting = new Map<number, OrderEvent>();
  let gapSince: number | null = null;
  let gapTimer: NodeJS.Timeout | null = null;

  const dispatch = (event: OrderEvent) => {
    for (const listener of listeners) {
      try { listener(event); } catch { /* a failing subscriber must not starve the others */ }
    }
  };
  /** Takes rows after `delivered` and delivers what is contiguous; a gap waits (see gapWaitMs). */
  const offer = (events: OrderEvent[]) => {
    for (const e of events) if (e.id > delivered) waiting.set(e.id, e);
    for (;;) {
      const next = waiting.get(delivered + 1);
      if (next) {
        waiting.delete(next.id);
        delivered = next.id;
        gapSince = null;
        dispatch(next);
        continue;
      }
      if (!waiting.size) break;
      gapSince ??= Date.now();
      if (Date.now() - gapSince < gapWaitMs) {
        if (!gapTimer && !closed) {
          gapTimer = setTimeout(() => { gapTimer = null; wake(); }, gapWaitMs - (Date.now() - gapSince) + 1);
          gapTimer.unref?.();
        }
        break;
      }
      // Given up: that id's statement failed (or its commit is slower than gapWaitMs).
      delivered = Math.min(...waiting.keys()) - 1;
      gapSince = null;
    }
    if (!waiting.size && gapTimer) { clearTimeout(gapTimer); gapTimer = null; }
  };

  let reading: Promise<void> | null = null;
  let readAgain = false;
  /** Reads the rows after `delivered` (one read at a time; a wake during a read reads again after it). */
  const wake = (id?: number) => {
    if (closed || !transport || (id !== undefined && id <= delivered)) return;
    if (reading) { readAgain = true; return; }
    reading = (async () => {
      do {
        readAgain = false;
        try {
          // From the last id delivered, not the last one read: an id missing last time may be there now.
          let after = delivered;
          let rows: OrderEvent[];
          do {
            rows = (await transport!.query<Row>(`select ${COLUMNS} from order_events where id > $1 order by id limit ${PAGE}`, [after])).map(eventOf);
            offer(rows);
            after = rows.at(-1)?.id ?? after;
          } while (rows.length === PAGE && !closed);
        } catch { /* the connection is down: its reconnection reads again */ }
      } while (readAgain && !closed);
      reading = null;
    })();
  };

  let transport: Listening | null = null;
  transport = await listenOn(database, channel, {
    // PGlite calls listeners before the notifying query answers: a turn later, the publisher (this
    // process, PGlite has one) has delivered its own row, and its own notification needs no read.
    onNotify: (payload) => {
      if (database.kind === 'pglite') setImmediate(() => wake(Number(payload) || undefined));
      else wake(Number(payload) || undefined);
    },
    // Whatever was written while this process was not listening.
    onConnected: () => wake(),
  });
  // Anything written between reading the newest id and listening.
  wake();

  const prune = () => {
    if (closed) return;
    void query('delete from order_events where at < $1', [new Date(Date.now() - retentionMs)]).catch(() => {});
  };
  const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
  pruneTimer.unref?.();
  setTimeout(prune, 10_000).unref?.();

  return {
    async publish(event) {
      if (closed) return;
      // Written by the change itself: delivered here at once; the other processes read it when woken.
      if (event.id !== undefined && event.at !== undefined) return void offer([event as OrderEvent]);
      const { type, orderId, branchId, brandId, id: _id, at: _at, ...rest } = event;
      const [row] = await query(
        `with e as (insert into order_events (type, order_id, branch_id, brand_id, payload) values ($1, $2, $3, $4, $5) returning ${COLUMNS}) `
          + `select e.*, pg_notify($6, e.id::text) from e`,
        [type, orderId, branchId, brandId, JSON.stringify(rest), channel],
      );
      // Delivered here at once (after any id before it), without waiting for the notification.
      offer([eventOf(row)]);
    },
    subscribe(listener, resume) {
      if (!resume) {
        listeners.add(listener);
        return () => { listeners.delete(listener); };
      }
      return replayThenFollow(listener, resume);
    },
    async close() {
      closed = true;
      listeners.clear();
      clearInterval(pruneTimer);
      if (gapTimer) clearTimeout(gapTimer);
      await reading;
      await transport?.close();
    },
  };

  /** The rows after `resume.after` up to what this process delivered, then the live events after those, each once. */
  function replayThenFollow(listener: Listener, resume: ResumeFrom) {
    const upTo = delivered;
    let last = resume.after;
    let held: OrderEvent[] | null = [];
    let stopped = false;
    const hand = (e: OrderEvent) => {
      if (e.id <= last || stopped) return;
      last = e.id;
      listener(e);
    };
    const live: Listener = (e) => { if (held) held.push(e); else hand(e); };
    listeners.add(live);
    void (async () => {
      try {
        if (resume.after < upTo) {
          const [{ oldest }] = await query<{ oldest: string | number | null }>('select min(id) as oldest from order_events', []);
          if (oldest == null || Number(oldest) > resume.after + 1) resume.reset();
          for (let after = resume.after; after < upTo && !stopped;) {
            const rows = (await query(`select ${COLUMNS} from order_events where id > $1 and id <= $2 order by id limit ${PAGE}`, [after, upTo])).map(eventOf);
            for (const e of rows) hand(e);
            if (rows.length < PAGE) break;
            after = rows[rows.length - 1].id;
          }
        }
      } catch {
        resume.reset();
      }
      const rest = held ?? [];
      held = null;
      for (const e of rest) hand(e);
    })();
    return () => { stopped = true; listeners.delete(live); };
  }
}

function eventOf(row: Row): OrderEvent {
  const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload ?? {}) as Record<string, unknown>;
  return {
    ...payload,
    id: Number(row.id),
    type: row.type as OrderEvent['type'],
    orderId: row.order_id,
    branchId: row.branch_id,
    brandId: row.brand_id,
    at: new Date(row.at).toISOString(),
  };
}
