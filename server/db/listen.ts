import type { Database } from './client';

/**
 * PostgreSQL LISTEN for a server process (issue 26): ONE dedicated connection per process and
 * database, outside the pool, carrying every channel the process follows (the order events'
 * `order_events`, the callers' `caller_changed`). It must reach PostgreSQL directly or through a
 * session-mode pooler: a transaction-mode pooler (PgBouncer) does not support LISTEN
 * (docs/deploy.md, "The live feed across processes"). It shows in pg_stat_activity under
 * LISTEN_APPLICATION_NAME.
 */
export const LISTEN_APPLICATION_NAME = 'brewops listen';
/** The first wait before connecting again after a loss; it doubles up to LONGEST_RETRY_MS. */
export const FIRST_RETRY_MS = 500;
export const LONGEST_RETRY_MS = 30_000;

export interface ListenHandlers {
  onNotify(channel: string, payload: string | undefined): void;
  /** Connected and listening on every channel (first time and after every loss): whatever was sent meanwhile was missed. */
  onConnected?(): void;
  /** The connection was lost: notifications are missed until onConnected. */
  onLost?(): void;
}

export interface ListenClient {
  /** Whether a notification would reach this process right now. */
  up(): boolean;
  /** A statement on the listening connection (so reads that follow a wake do not take the pool); throws while it is down. */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
  /** Listens on one more channel: now when connected, and at every reconnection. */
  listen(channel: string): Promise<void>;
  close(): Promise<void>;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A reconnecting LISTEN client: connects (the pool's settings, or a URL), LISTENs on `channels`,
 * and on a loss forgets the connection and connects again after 0.5 s, doubling up to 30 s.
 * keepAlive: a connection dead without a word is noticed by the kernel.
 */
export async function listenClient(source: import('pg').Pool | string, channels: string[], handlers: ListenHandlers): Promise<ListenClient> {
  const pg = (await import('pg')).default;
  const config: import('pg').ClientConfig = typeof source === 'string'
    ? { connectionString: source }
    : (source as unknown as { options: import('pg').ClientConfig }).options;
  const listened = new Set(channels);
  let closed = false;
  let client: import('pg').Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = FIRST_RETRY_MS;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ ...config, keepAlive: true, application_name: LISTEN_APPLICATION_NAME });
    c.on('notification', (msg) => { if (listened.has(msg.channel)) handlers.onNotify(msg.channel, msg.payload); });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const channel of listened) await c.query(`listen ${quoteIdent(channel)}`);
      if (closed) { lost(c); return; }
      client = c;
      delay = FIRST_RETRY_MS;
      handlers.onConnected?.();
    } catch {
      lost(c);
    }
  };
  const lost = (c: import('pg').Client) => {
    if (client === c) client = null;
    c.removeAllListeners();
    c.on('error', () => {});
    c.end().catch(() => {});
    if (closed) return;
    handlers.onLost?.();
    if (retry) return;
    retry = setTimeout(() => { retry = null; void connect(); }, delay);
    delay = Math.min(delay * 2, LONGEST_RETRY_MS);
  };

  await connect();
  return {
    up: () => client !== null,
    async query<T>(text: string, params: unknown[]) {
      if (!client) throw new Error('not listening');
      return (await client.query(text, params)).rows as T[];
    },
    async listen(channel) {
      if (listened.has(channel)) return;
      listened.add(channel);
      // A failure here is a lost connection: its reconnection listens on every channel.
      if (client) await client.query(`listen ${quoteIdent(channel)}`).catch(() => {});
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

/** One follower's view of the process's listening connection. */
export interface Listening {
  up(): boolean;
  /** A statement on the listening side (PostgreSQL: its connection; PGlite: the database). */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface ChannelHandlers {
  onNotify(payload: string | undefined): void;
  onConnected?(): void;
  onLost?(): void;
}

interface Shared { client: Promise<ListenClient>; followers: Set<{ channel: string; handlers: ChannelHandlers }> }
/** The process's one listening connection per database (keyed by its pool; tests run several servers in one process). */
const shared = new WeakMap<object, Shared>();

/**
 * Follows `channel` on the process's one listening connection to `database`, opened with the first
 * follower and closed with the last. PGlite (one process) has its own listen(), which delivers a
 * notification before the committing statement returns; it is always up while the database is open.
 */
export async function listenOn(database: Pick<Database, 'kind' | 'client'>, channel: string, handlers: ChannelHandlers): Promise<Listening> {
  if (database.kind === 'pglite') {
    const client = database.client as import('@electric-sql/pglite').PGlite;
    const unlisten = await client.listen(channel, (payload) => handlers.onNotify(payload));
    let closed = false;
    return {
      up: () => !closed && !client.closed,
      async query<T>(text: string, params: unknown[]) {
        if (closed || client.closed) return [];
        return (await client.query<T & object>(text, params)).rows as T[];
      },
      async close() {
        if (closed) return;
        closed = true;
        if (!client.closed) await unlisten().catch(() => {});
      },
    };
  }
  const pool = database.client as import('pg').Pool;
  const follower = { channel, handlers };
  let entry = shared.get(pool);
  if (entry) {
    entry.followers.add(follower);
    await (await entry.client).listen(channel);
  } else {
    const followers = new Set([follower]);
    const each = (f: (h: ChannelHandlers, channel: string) => void) => { for (const x of followers) f(x.handlers, x.channel); };
    entry = {
      followers,
      client: listenClient(pool, [channel], {
        onNotify: (ch, payload) => each((h, own) => { if (own === ch) h.onNotify(payload); }),
        onConnected: () => each((h) => h.onConnected?.()),
        onLost: () => each((h) => h.onLost?.()),
      }),
    };
    shared.set(pool, entry);
  }
  const client = await entry.client;
  const own = entry;
  let closed = false;
  return {
    up: () => !closed && client.up(),
    query: (text, params) => client.query(text, params),
    async close() {
      if (closed) return;
      closed = true;
      own.followers.delete(follower);
      if (own.followers.size) return;
      if (shared.get(pool) === own) shared.delete(pool);
      await client.close();
    },
  };
}
