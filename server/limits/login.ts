import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { tooManyRequests } from '../http/envelope';
import { claim, clear, release, type LimitPolicy } from './rateLimit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Login limits (docs/decisions.md "Login limits behind a shared address"; OWASP ASVS 5.0 6.1.1, 6.3.1, 2.4.1).
 * - account: 5 tries in a row; from the 5th failure on, each try (the right password too) waits
 *   1, 2, 4, 8, 16, then 30 minutes. A good login or a password reset forgets them; otherwise they are
 *   forgotten a day after the first.
 * - client (address): failures are counted an hour at a time (a good login takes its try back). Past 30,
 *   the address is *throttled*, never locked: each of its tries waits `clientDelay` before the password
 *   is checked, and a try at an account that has failures of its own (from anywhere) is 429 until the
 *   address's hour is over. A right password for an account nobody has been failing at still gets in,
 *   so the others behind one carrier NAT are slowed, not shut out, by someone guessing among them.
 */
export const LOGIN_LIMITS: { account: LimitPolicy; client: LimitPolicy; clientDelay: { stepMs: number; maxMs: number } } = {
  account: { max: 5, windowMs: 24 * HOUR, delay: { baseMs: MINUTE, maxMs: 30 * MINUTE } },
  client: { max: 30, windowMs: HOUR },
  /** A throttled address's every try waits `stepMs` for each failure past `client.max` in its hour, at most `maxMs`. */
  clientDelay: { stepMs: 50, maxMs: 2_000 },
};

/** The account a login names: the user when one matches, else the login text itself, so unknown accounts are limited alike. */
export const loginAccountKey = (userId: number | null, login: string) =>
  `login:account:${userId !== null ? `user:${userId}` : `name:${login.toLowerCase()}`}`;
const clientKey = (client: string) => `login:client:${client}`;

export const minutesText = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
const tooManyFailedLogins = (seconds: number) =>
  tooManyRequests(`Too many failed logins. Please try again in ${minutesText(seconds)}.`, seconds);

/**
 * Counts one try for the client in its hour (never refused here) and answers how many tries it had
 * before this one that were not given back (its failures, and tries still in flight), and the
 * seconds left in its hour. One statement, so concurrent tries in any number of processes each count.
 */
async function countClientTry(db: Db, client: string) {
  const { windowMs } = LOGIN_LIMITS.client;
  const windowOver = sql`${rateLimits.windowStart} <= now() - ${windowMs}::integer * interval '1 millisecond'`;
  const [row] = await db.insert(rateLimits).values({ key: clientKey(client), count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${windowOver} then now() else ${rateLimits.windowStart} end`,
        blockedUntil: null,
      },
    })
    .returning({
      count: rateLimits.count,
      secondsLeft: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${windowMs}::integer * interval '1 millisecond' - now())))::int`,
    });
  return { earlier: row.count - 1, secondsLeft: Math.max(1, Number(row.secondsLeft)) };
}

/** Whether the account has failed logins still counted (in its day, no good login or reset since), from any address. */
async function accountHasFailures(db: Db, accountKey: string) {
  const [row] = await db.select({ key: rateLimits.key }).from(rateLimits).where(and(
    eq(rateLimits.key, accountKey), gt(rateLimits.count, 0),
    sql`${rateLimits.windowStart} > now() - ${LOGIN_LIMITS.account.windowMs}::integer * interval '1 millisecond'`,
  ));
  return !!row;
}

/** How long a try from an address with `failures` in its hour waits before its password is checked (0 below the limit). */
export const throttleDelayMs = (failures: number) => {
  const over = failures - LOGIN_LIMITS.client.max + 1;
  return over > 0 ? Math.min(LOGIN_LIMITS.clientDelay.maxMs, LOGIN_LIMITS.clientDelay.stepMs * over) : 0;
};

/**
 * Counts a login attempt before the password is checked, so that concurrent attempts cannot all
 * slip under the limits; 429 with Retry-After when the account must wait, or when a throttled client
 * tries an account that has failures. The client is counted first: tries at a locked account still
 * count against the one making them. A throttled client's admitted try waits here, whatever the
 * password, so the time taken does not tell a right one from a wrong one.
 */
export async function admitLoginAttempt(db: Db, accountKey: string, client: string) {
  const { earlier, secondsLeft } = await countClientTry(db, client);
  const wait = throttleDelayMs(earlier);
  if (wait > 0) {
    if (await accountHasFailures(db, accountKey)) throw tooManyFailedLogins(secondsLeft);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const result = await claim(db, accountKey, LOGIN_LIMITS.account);
  if (!result.admitted) throw tooManyFailedLogins(result.retryAfterSeconds);
}

/** A good login: the account starts afresh and the client gets its try back. */
export async function loginSucceeded(db: Db, accountKey: string, client: string) {
  await clear(db, accountKey);
  await release(db, clientKey(client), LOGIN_LIMITS.client);
}

/** The owner proved the phone (password reset by SMS code): lift the account's lock. */
export const forgetLoginFailures = (db: Db, userId: number) => clear(db, loginAccountKey(userId, ''));
