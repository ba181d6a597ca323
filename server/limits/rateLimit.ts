import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { rowsOf } from '../db/client';

/**
 * How much one key (an account, a client address, a phone…) may do. Attempts are counted in a
 * window that starts with the first one. Once `max` attempts are counted the key is blocked:
 * until the window ends, or, with `delay`, for base × 2^(attempts − max), at most `maxMs`,
 * so each attempt admitted after a block waits twice as long as the one before.
 */
export interface LimitPolicy {
  max: number;
  windowMs: number;
  delay?: { baseMs: number; maxMs: number };
}

export type Claim = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * Counts one attempt for `key`, unless the key is blocked. The check and the count are one
 * UPDATE on the key's row (its WHERE is re-checked under the row lock on PostgreSQL), so
 * concurrent requests, in any number of processes, never get past the limit together.
 */
export async function claim(db: Db, key: string, policy: LimitPolicy): Promise<Claim> {
  if (++claims % PRUNE_EVERY === 0) await pruneRateLimits(db);
  await db.insert(rateLimits).values({ key, count: 0 }).onConflictDoNothing();
  const windowOver = sql`${rateLimits.windowStart} <= now() - ${policy.windowMs}::integer * interval '1 millisecond'`;
  const counted = sql`(case when ${windowOver} then 1 else ${rateLimits.count} + 1 end)`;
  const windowStart = sql`(case when ${windowOver} then now() else ${rateLimits.windowStart} end)`;
  const blockedUntil = policy.delay
    ? sql`case when ${counted} >= ${policy.max}::integer then now() + least(
        ${policy.delay.baseMs}::float8 * power(2, least(${counted} - ${policy.max}::integer, 30)), ${policy.delay.maxMs}::float8
      ) * interval '1 millisecond' end`
    : sql`case when ${counted} >= ${policy.max}::integer then ${windowStart} + ${policy.windowMs}::integer * interval '1 millisecond' end`;
  const admitted = await db.update(rateLimits)
    .set({ count: counted, windowStart, blockedUntil })
    .where(and(eq(rateLimits.key, key), or(isNull(rateLimits.blockedUntil), lte(rateLimits.blockedUntil, sql`now()`))))
    .returning({ count: rateLimits.count });
  if (admitted.length) return { admitted: true };
  const [row] = rowsOf<{ seconds: number | null }>(await db.execute(
    sql`select ceil(extract(epoch from (blocked_until - now())))::int as seconds from rate_limits where key = ${key}`,
  ));
  return { admitted: false, retryAfterSeconds: Math.max(1, Number(row?.seconds ?? 1)) };
}

/**
 * Keys are many (every login text and address tried), so rows whose window is over and that
 * block nothing are dropped now and then. No policy has a window longer than LONGEST_WINDOW_MS.
 */
export const LONGEST_WINDOW_MS = 24 * 60 * 60_000;
const PRUNE_EVERY = 500;
let claims = 0;
export async function pruneRateLimits(db: Db) {
  await db.delete(rateLimits).where(and(
    lte(rateLimits.windowStart, sql`now() - ${LONGEST_WINDOW_MS}::integer * interval '1 millisecond'`),
    or(isNull(rateLimits.blockedUntil), lte(rateLimits.blockedUntil, sql`now()`)),
  ));
}

/** Takes one counted attempt back (it turned out fine, or a later limit refused it), and lifts the block if it is now under `max`. */
export async function release(db: Db, key: string, policy: LimitPolicy) {
  await db.update(rateLimits).set({
    count: sql`greatest(${rateLimits.count} - 1, 0)`,
    blockedUntil: sql`case when ${rateLimits.count} - 1 < ${policy.max}::integer then null else ${rateLimits.blockedUntil} end`,
  }).where(eq(rateLimits.key, key));
}

/** Forgets a key altogether (an account's failures after a good login). */
export async function clear(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Claims every key in order; when one refuses (named in `refusedBy`), the ones already counted are given back. */
export async function claimAll(db: Db, limits: [key: string, policy: LimitPolicy][]): Promise<Claim & { refusedBy?: string }> {
  for (let i = 0; i < limits.length; i++) {
    const result = await claim(db, ...limits[i]);
    if (!result.admitted) {
      for (const [key, policy] of limits.slice(0, i)) await release(db, key, policy);
      return { ...result, refusedBy: limits[i][0] };
    }
  }
  return { admitted: true };
}
