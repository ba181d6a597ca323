import type { Database } from '../db/client';
import { listenOn } from '../db/listen';

/**
 * What each process knows of its callers' user rows (role, place, active, session generation, a
 * brand manager's brands), kept between requests so a request reads no user row, and forgotten
 * through the database so every process sharing it sees a change. The truth stays the row: the
 * database's triggers (migration 0055) announce every committed change on the channel below, which
 * every process LISTENs on, and each forgets that user; its next request reads the row again.
 */
export const CALLER_CHANNEL = 'caller_changed';

/**
 * How long a process keeps a caller without reading the row again: the bound for a change a process
 * did not hear of (a notification lost while the listening connection died unnoticed, a row changed
 * by hand in SQL). A change made through the product is heard at once.
 */
export const CALLER_TTL_MS = 5_000;
const MAX_CALLERS = 10_000;

/** The caches of this process's servers (tests run several servers in one process). */
const localForgetters = new Set<(userId: number) => void>();

/**
 * The product changed the user's row or brands: this process forgets the user at once, before the
 * notification (migration 0055's triggers, sent at commit) comes back to its listener; the other
 * processes forget when it reaches them. A change needs no call here to be heard: this only closes
 * the writer's own process's gap between its commit and its listener hearing it.
 */
export function forgetCallerHere(userId: number) {
  for (const forget of localForgetters) forget(userId);
}

/** This process's LISTEN on CALLER_CHANNEL; `heard` says whether a change would reach it right now. */
export interface CallerChanges {
  heard(): boolean;
  /** `userId` changed; null: any user may have (the connection was lost, so changes may have been missed). */
  subscribe(listener: (userId: number | null) => void): () => void;
  close(): Promise<void>;
}

/**
 * Follows CALLER_CHANNEL on the process's one listening connection (server/db/listen.ts, shared with
 * the order events). PGlite delivers a notification before the committing statement returns.
 * PostgreSQL: while the connection is down `heard()` is false, and losing it or connecting again
 * tells subscribers to forget everyone (whatever changed meanwhile was not heard).
 */
export async function listenCallerChanges(database: Pick<Database, 'kind' | 'client'>): Promise<CallerChanges> {
  const listeners = new Set<(userId: number | null) => void>();
  const tell = (userId: number | null) => { for (const l of listeners) l(userId); };
  const listening = await listenOn(database, CALLER_CHANNEL, {
    onNotify(payload) {
      const id = Number(payload);
      tell(Number.isInteger(id) ? id : null);
    },
    onConnected: () => tell(null),
    onLost: () => tell(null),
  });
  return {
    heard: listening.up,
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    async close() {
      listeners.clear();
      await listening.close();
    },
  };
}

/** A caller as read from the row, with the generation its tokens must carry. */
export interface KnownCaller<T> { caller: T; generation: number }

/**
 * The per-process cache over `read` (the row read). An entry is used only while the listener is up
 * and for CALLER_TTL_MS at most; a read that overlapped a change is used for its request but not kept.
 */
export function createCallerCache<T>(changes: CallerChanges | null, read: (userId: number) => Promise<KnownCaller<T> | null>) {
  const kept = new Map<number, { known: KnownCaller<T>; at: number }>();
  // Moves on at every change heard: a read that began before a change may hold the old row.
  let epoch = 0;
  const forget = (userId: number | null) => {
    epoch++;
    if (userId === null) kept.clear();
    else kept.delete(userId);
  };
  const unsubscribe = changes?.subscribe(forget);
  if (changes) localForgetters.add(forget);
  return {
    /**
     * The caller for a token of `generation`: kept, or read. A token newer than what is kept means
     * the entry is stale (the user signed in again since a change this process has not heard of yet).
     */
    async get(userId: number, generation: number): Promise<KnownCaller<T> | null> {
      if (!changes?.heard()) return read(userId);
      const entry = kept.get(userId);
      if (entry && Date.now() - entry.at < CALLER_TTL_MS && generation <= entry.known.generation) return entry.known;
      const began = epoch;
      const known = await read(userId);
      if (known && epoch === began && changes.heard()) {
        kept.delete(userId);
        if (kept.size >= MAX_CALLERS) kept.delete(kept.keys().next().value!);
        kept.set(userId, { known, at: Date.now() });
      }
      return known;
    },
    close() {
      unsubscribe?.();
      localForgetters.delete(forget);
      kept.clear();
    },
  };
}
