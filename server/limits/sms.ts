import type { Db } from '../db/client';
import { tooManyRequests } from '../http/envelope';
import { claimAll, type LimitPolicy } from './rateLimit';

const HOUR = 60 * 60_000;

/**
 * Limits on sending codes by SMS (SMS pumping; docs/decisions.md "Hardening: accounts and limits"):
 * - phone: 5 codes per phone and purpose in 10 minutes (the code's lifetime);
 * - client (address): 20 codes an hour, to any phones;
 * - prefix: 20 codes an hour to one number block (the first 7 digits of the E.164 number, e.g. 9655000);
 * - platform: 1000 codes an hour in all.
 * And, before a code is even considered, lookups: 30 reset requests an hour per client address,
 * whether or not the phone is registered (the answer says which: unlimited, a client could list
 * every registered number).
 * Checked in that order; a refusal gives back what the earlier ones counted, so a caller over its own
 * limit does not use up the platform's budget.
 */
export const SMS_LIMITS = {
  phone: { max: 5, windowMs: 10 * 60_000 },
  client: { max: 20, windowMs: HOUR },
  prefix: { max: 20, windowMs: HOUR },
  platform: { max: 1000, windowMs: HOUR },
  lookup: { max: 30, windowMs: HOUR },
} satisfies Record<string, LimitPolicy>;

export const TOO_MANY_CODES_FOR_PHONE = 'Too many codes were requested. Please try again in 10 minutes.';
export const TOO_MANY_CODES = 'Too many codes were requested. Please try again later.';

/** Counts one code about to be sent, or throws 429 (with Retry-After) and nothing is sent. */
export async function admitSms(db: Db, phoneNumber: string, purpose: string, client: string) {
  const phoneKey = `sms:phone:${purpose}:${phoneNumber}`;
  const result = await claimAll(db, [
    [phoneKey, SMS_LIMITS.phone],
    [`sms:client:${client}`, SMS_LIMITS.client],
    [`sms:prefix:${phoneNumber.replace(/\D/g, '').slice(0, 7)}`, SMS_LIMITS.prefix],
    ['sms:platform', SMS_LIMITS.platform],
  ]);
  if (!result.admitted) {
    throw tooManyRequests(result.refusedBy === phoneKey ? TOO_MANY_CODES_FOR_PHONE : TOO_MANY_CODES, result.retryAfterSeconds);
  }
}

/** Counts one lookup of a phone by a client (a reset code request), or throws 429 and nothing is looked up. */
export async function admitPhoneLookup(db: Db, client: string) {
  const result = await claimAll(db, [[`sms:lookup:${client}`, SMS_LIMITS.lookup]]);
  if (!result.admitted) throw tooManyRequests(TOO_MANY_CODES, result.retryAfterSeconds);
}
