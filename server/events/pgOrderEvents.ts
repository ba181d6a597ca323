import type { Database } from '../db/client';
import type { OrderEvent, OrderEvents } from './orderEvents';

/** The PostgreSQL channel the order events travel on. */
export const ORDER_EVENTS_CHANNEL = 'order_events';

type Listener = (event: OrderEvent) => void;

/**
 * The OrderEvents port over PostgreSQL LISTEN/NOTIFY, so every server process sharing the
 * database sees every order event (ARCHITECTURE.md: subscriptions never fan out through one
 * process's memory). Publishing is `select pg_notify('order_events', json)`; each process
 * LISTENs once and hands events to its local subscribers, its own events included.
 *
 * PGlite (one in-process connection) uses its own listen(). PostgreSQL uses a dedicated client
 * outside the pool, reconnecting with backoff; events sent while it is disconnected are missed,
 * which is why the staff lists take `CreatedAfterId` for catching up.
 */
export async function pgOrderEvents(database: Pick<Database, 'kind' | 'client'>, channel = ORDER_EVENTS_CHANNEL): Promise<OrderEvents> {
  const listeners = new Set<Listener>();
  const dispatch = (payload: string | undefined) => {
    if (!payload) return;
    let event: OrderEvent;
    try {
      event = JSON.parse(payload) as OrderEvent;
    } catch {
      return;
    }
    for (const listener of listeners) {
      try { listener(event); } catch { /* a failing subscriber must not starve the others */ }
    }
  };
  const transport = database.kind === 'pglite'
    ? await pgliteTransport(database.client as import('@electric-sql/pglite').PGlite, channel, dispatch)
    : await postgresTransport(database.client as import('pg').Pool, channel, dispatch);
  return {
    async publish(event) {
      await transport.notify(JSON.stringify({ ...event, at: new Date().toISOString() } satisfies OrderEvent));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    async close() {
      listeners.clear();
      await transport.close();
    },
  };
}

interface Transport { notify(payload: string): Promise<void>; close(): Promise<void> }

async function pgliteTransport(client: import('@electric-sql/pglite').PGlite, channel: string, dispatch: (p: string) => void): Promise<Transport> {
  const unlisten = await client.listen(channel, dispatch);
  let closed = false;
  return {
    async notify(payload) {
      if (closed || client.closed) return;
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (!client.closed) await unlisten().catch(() => {});
    },
  };
}

async function postgresTransport(pool: import('pg').Pool, channel: string, dispatch: (p: string | undefined) => void): Promise<Transport> {
  const pg = (await import('pg')).default;
  let closed = false;
  let client: import('pg').Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = 500;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client((pool as unknown as { options: import('pg').ClientConfig }).options);
    c.on('notification', (msg) => { if (msg.channel === channel) dispatch(msg.payload); });
    c.on('error', () => reconnect(c));
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`listen ${quoteIdent(channel)}`);
      client = c;
      delay = 500;
    } catch {
      reconnect(c);
    }
  };
  const reconnect = (c: import('pg').Client) => {
    if (client === c) client = null;
    c.removeAllListeners();
    c.on('error', () => {});
    c.end().catch(() => {});
    if (closed || retry) return;
    retry = setTimeout(() => { retry = null; void connect(); }, delay);
    delay = Math.min(delay * 2, 30_000);
  };

  await connect();
  return {
    async notify(payload) {
      if (closed) return;
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
