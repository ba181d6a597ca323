import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rowsOf } from '../db/client';
import { smsGuard } from '../db/schema';
import { ApiError, badRequest, tooManyRequests } from '../http/envelope';

/**
 * The guard against SMS pumping (issue 27), on top of the limits per phone and client
 * (server/limits/sms.ts), for a real provider only: the embedded outbox sends nothing and costs
 * nothing. What the providers advise (Twilio "SMS pumping fraud", Unifonic's fraud guidance):
 * - destinations: +965 only unless SMS_ALLOWED_COUNTRY_CODES names others (e.g. `965,966`);
 * - resend: after each code to a phone a cooldown, 60 s doubling up to 32 minutes, counted since the
 *   phone's last verified code (or the last day);
 * - circuit breaker: over the last hour (since the last resume), more than 50 codes sent and fewer
 *   than half of them verified pauses every send until staff with `sms.guard` resume it.
 */
export const SMS_GUARD = {
  defaultCountryCodes: ['965'],
  cooldownBaseSeconds: 60,
  cooldownMaxSeconds: 32 * 60,
  /** Sends to one phone further back than this (without a verification between) no longer lengthen its cooldown. */
  cooldownMemoryHours: 24,
  breakerWindowMs: 60 * 60_000,
  breakerMinSends: 50,
  breakerMinVerifiedShare: 0.5,
} as const;

export const SMS_GUARD_TEXT = {
  country: 'Codes cannot be sent by SMS to numbers of this country.',
  cooldown: 'A code was just sent to this number. Please wait before asking for another one.',
  paused: 'Codes cannot be sent by SMS right now. Please try again later.',
} as const;

/** The country calling codes codes may be sent to: SMS_ALLOWED_COUNTRY_CODES (digits, comma separated), +965 by default. */
export function allowedCountryCodes(env: NodeJS.ProcessEnv = process.env): string[] {
  const listed = (env.SMS_ALLOWED_COUNTRY_CODES ?? '').split(',').map((c) => c.replace(/\D/g, '')).filter(Boolean);
  return listed.length ? listed : [...SMS_GUARD.defaultCountryCodes];
}

/** 400 unless the number (E.164) is in an allowed country. */
export function checkDestination(phoneNumber: string, codes = allowedCountryCodes()) {
  const digits = phoneNumber.replace(/\D/g, '');
  if (!phoneNumber.startsWith('+') || !codes.some((c) => digits.startsWith(c))) {
    throw badRequest(SMS_GUARD_TEXT.country, [{ message: SMS_GUARD_TEXT.country, members: ['phoneNumber'] }]);
  }
}

/** The wait after the n-th code to a phone: 60 s, 120 s, … at most 32 minutes. */
export const cooldownSeconds = (sentBefore: number) =>
  sentBefore <= 0 ? 0 : Math.min(SMS_GUARD.cooldownBaseSeconds * 2 ** (sentBefore - 1), SMS_GUARD.cooldownMaxSeconds);

/**
 * 429 with Retry-After while the phone's cooldown runs. Counted from the codes that went out to it
 * (a send that failed does not count: the customer never got it) since its last verified code.
 * Read early, before the limits count the request, and again under the phone's lock (claimSend).
 */
export async function checkCooldown(db: Db | Tx, phoneNumber: string) {
  const [row] = rowsOf<{ n: number; last: string | null }>(await db.execute(sql`
    select count(*)::int as n, max(o.created_at) as last
    from sms_outbox o join sms_sends s on s.outbox_id = o.id
    where o.phone_number = ${phoneNumber} and s.status <> 'failed'
      and o.created_at > now() - make_interval(hours => ${SMS_GUARD.cooldownMemoryHours})
      and o.created_at > coalesce((select max(v.used_at) from sms_outbox v where v.phone_number = ${phoneNumber}), '-infinity'::timestamptz)`));
  const wait = cooldownSeconds(Number(row?.n ?? 0));
  if (!wait || !row?.last) return;
  const left = Math.ceil((new Date(row.last).getTime() + wait * 1000 - Date.now()) / 1000);
  if (left > 0) throw tooManyRequests(SMS_GUARD_TEXT.cooldown, left);
}

/** pg_advisory_xact_lock's first key for the lock per phone (the second is the phone's hashtext). */
const SEND_LOCK = 727027;

/**
 * The cooldown checked again and the send recorded as one step per phone: under a lock on the
 * phone (transaction-scoped advisory lock; PGlite runs a transaction alone anyway) the cooldown
 * is read and `record` writes the send that the next read counts. Two requests for one phone at
 * the same instant both pass the early checkCooldown; the second to take the lock then finds the
 * first's send and gets the 429.
 */
export async function claimSend<T>(db: Db, phoneNumber: string, record: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEND_LOCK}::int, hashtext(${phoneNumber}))`);
    await checkCooldown(tx, phoneNumber);
    return record(tx);
  });
}

export interface BreakerState {
  paused: boolean;
  pausedAt: string | null;
  reason: string | null;
  resumedAt: string | null;
  /** Codes sent through the provider in the breaker's window (the last hour, since the last resume), and how many of them were verified. */
  sent: number;
  verified: number;
}

async function windowCounts(db: Db) {
  const [row] = rowsOf<{ sent: number; verified: number }>(await db.execute(sql`
    select count(*)::int as sent, count(o.used_at)::int as verified
    from sms_sends s join sms_outbox o on o.id = s.outbox_id
    where s.status <> 'failed'
      and s.created_at > greatest(now() - make_interval(secs => ${SMS_GUARD.breakerWindowMs / 1000}),
                                  coalesce((select resumed_at from sms_guard where id = 1), '-infinity'::timestamptz))`));
  return { sent: Number(row?.sent ?? 0), verified: Number(row?.verified ?? 0) };
}

export async function breakerState(db: Db): Promise<BreakerState> {
  const [[guard], counts] = await Promise.all([db.select().from(smsGuard).where(eq(smsGuard.id, 1)), windowCounts(db)]);
  return {
    paused: !!guard?.pausedAt, pausedAt: guard?.pausedAt?.toISOString() ?? null, reason: guard?.reason ?? null,
    resumedAt: guard?.resumedAt?.toISOString() ?? null, ...counts,
  };
}

const pausedError = () => new ApiError(503, SMS_GUARD_TEXT.paused);

/**
 * Refuses (503) while sending is paused; trips the breaker, and refuses, when the window's
 * verified share has fallen below half with more than 50 codes sent.
 */
export async function checkBreaker(db: Db) {
  const [guard] = await db.select({ pausedAt: smsGuard.pausedAt }).from(smsGuard).where(eq(smsGuard.id, 1));
  if (guard?.pausedAt) throw pausedError();
  const { sent, verified } = await windowCounts(db);
  if (sent > SMS_GUARD.breakerMinSends && verified / sent < SMS_GUARD.breakerMinVerifiedShare) {
    const reason = `Only ${verified} of the ${sent} codes sent in the last hour were verified (${Math.round((verified / sent) * 100)} %, below ${SMS_GUARD.breakerMinVerifiedShare * 100} %): possible SMS pumping.`;
    await db.update(smsGuard).set({ pausedAt: sql`now()`, reason }).where(sql`${smsGuard.id} = 1 and ${smsGuard.pausedAt} is null`);
    throw pausedError();
  }
}

/** Staff resume sending: the breaker counts again from now. */
export async function resumeSending(db: Db, userId: number | null) {
  await db.update(smsGuard).set({ pausedAt: null, reason: null, resumedAt: sql`now()`, resumedBy: userId }).where(eq(smsGuard.id, 1));
}
