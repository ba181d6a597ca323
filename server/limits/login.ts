import type { Db } from '../db/client';
import { tooManyRequests } from '../http/envelope';
import { claim, clear, release, type LimitPolicy } from './rateLimit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Login limits (docs/decisions.md "Hardening: accounts and limits"; OWASP ASVS 5.0 6.1.1, 6.3.1, 2.4.1).
 * - account: 5 tries in a row; from the 5th failure on, each try waits 1, 2, 4, 8, 16, then 30 minutes.
 *   A good login or a password reset forgets them; otherwise they are forgotten a day after the first.
 * - client (address): 30 failures an hour over any accounts; then 1, 2, 4 … 60 minutes between tries.
 *   A good login takes its try back, so a busy shared address (carrier NAT) is not penalised for successes.
 */
export const LOGIN_LIMITS = {
  account: { max: 5, windowMs: 24 * HOUR, delay: { baseMs: MINUTE, maxMs: 30 * MINUTE } },
  client: { max: 30, windowMs: HOUR, delay: { baseMs: MINUTE, maxMs: HOUR } },
} satisfies Record<string, LimitPolicy>;

/** The account a login names: the user when one matches, else the login text itself, so unknown accounts are limited alike. */
export const loginAccountKey = (userId: number | null, login: string) =>
  `login:account:${userId !== null ? `user:${userId}` : `name:${login.toLowerCase()}`}`;
const clientKey = (client: string) => `login:client:${client}`;

export const minutesText = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * Counts a login attempt before the password is checked, so that concurrent attempts cannot all
 * slip under the limit; 429 with Retry-After when the client or the account must wait.
 * The client is counted first: tries at a locked account still count against the one making them.
 */
export async function admitLoginAttempt(db: Db, accountKey: string, client: string) {
  for (const [key, policy] of [[clientKey(client), LOGIN_LIMITS.client], [accountKey, LOGIN_LIMITS.account]] as const) {
    const result = await claim(db, key, policy);
    if (!result.admitted) {
      throw tooManyRequests(`Too many failed logins. Please try again in ${minutesText(result.retryAfterSeconds)}.`, result.retryAfterSeconds);
    }
  }
}

/** A good login: the account starts afresh and the client gets its try back. */
export async function loginSucceeded(db: Db, accountKey: string, client: string) {
  await clear(db, accountKey);
  await release(db, clientKey(client), LOGIN_LIMITS.client);
}

/** The owner proved the phone (password reset by SMS code): lift the account's lock. */
export const forgetLoginFailures = (db: Db, userId: number) => clear(db, loginAccountKey(userId, ''));
