import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { smsOutbox } from '../../db/schema';
import { badRequest, tooManyRequests } from '../../http/envelope';
import { admitSms } from '../../limits/sms';
import { checkBreaker, checkCooldown, checkDestination } from '../../limits/smsGuard';
import { codeSmsText } from '../../messages/sms';
import { deliverCode } from '../../messages/smsSends';
import type { SmsProvider } from '../../messages/smsProviders';
import { DEFAULT_LANGUAGE, type LanguageCode } from '../../../domain/languages';
import { asciiDigits } from '../../../domain/digits';

/** SMS verification codes (registration, password reset, sign-in with a code). SPEC: 6 digits, 10 minutes, single use. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_WRONG_TRIES = 5;

export type { CodePurpose } from '../../messages/sms';
import type { CodePurpose } from '../../messages/sms';

/** The SMS port and its adapters live in server/messages/smsProviders.ts. */
export { outboxSmsProvider, type SmsProvider } from '../../messages/smsProviders';

export interface CodeRequest {
  phoneNumber: string;
  purpose: CodePurpose;
  /** The address of the client asking, for the SMS limits (server/limits/sms.ts). */
  client: string;
  email?: string | null;
  /** The language of the SMS: the request's (Accept-Language), English by default. */
  language?: LanguageCode;
}

/**
 * The checks and counts of a code about to be sent (issueCode), or their refusal. Sign-in with a
 * code runs them alone for a phone with no account, so that phone is answered, and limited, as a
 * registered one would be while nothing is sent.
 */
export async function admitCode(db: Db, sms: SmsProvider, { phoneNumber, purpose, client }: Pick<CodeRequest, 'phoneNumber' | 'purpose' | 'client'>) {
  if (!sms.embeddedOutbox) {
    checkDestination(phoneNumber);
    await checkCooldown(db, phoneNumber);
    await checkBreaker(db);
  }
  await admitSms(db, phoneNumber, purpose, client);
}

/**
 * Issues a new code, within the SMS limits (429 with nothing sent when over one). With a real
 * provider the pumping guard comes first (server/limits/smsGuard.ts: the destination's country,
 * the phone's cooldown, the circuit breaker), and a send that fails is a 503 (server/messages/smsSends.ts).
 */
export async function issueCode(db: Db, sms: SmsProvider, { phoneNumber, purpose, client, email = null, language = DEFAULT_LANGUAGE }: CodeRequest) {
  await admitCode(db, sms, { phoneNumber, purpose, client });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const [row] = await db.insert(smsOutbox).values({ phoneNumber, purpose, code, email, expiresAt: new Date(Date.now() + CODE_TTL_MS) }).returning({ id: smsOutbox.id });
  await deliverCode(db, sms, row.id, phoneNumber, codeSmsText(code, purpose, language));
  return code;
}

/** The refusals of a code, also read in Arabic (server/messages/arabic.ts). */
export const CODE_TEXT = {
  expired: 'The verification code has expired or was already used. Please request a new one.',
  wrong: 'The verification code is not correct.',
  tooManyWrong: 'Too many wrong codes. Please request a new code.',
} as const;
const EXPIRED = CODE_TEXT.expired;

/**
 * Checks a code against the newest live one and uses it up. Each try, right or wrong, first takes
 * one of the code's MAX_WRONG_TRIES in a single UPDATE (check and count at once), so concurrent
 * tries cannot all be judged; once they are spent every try, the right code too, gets 429 until a
 * new code is issued. A right code gives its try back, so `failed_attempts` counts wrong ones.
 * Pass the database, not a transaction: a wrong try must stay counted when the caller rolls back.
 */
export async function consumeCode(db: Db, phoneNumber: string, purpose: CodePurpose, code: string | number) {
  const live = and(eq(smsOutbox.phoneNumber, phoneNumber), eq(smsOutbox.purpose, purpose), isNull(smsOutbox.usedAt), gt(smsOutbox.expiresAt, sql`now()`));
  const newest = db.select({ id: smsOutbox.id }).from(smsOutbox).where(live).orderBy(desc(smsOutbox.id)).limit(1);
  const [judged] = await db.update(smsOutbox)
    .set({ failedAttempts: sql`${smsOutbox.failedAttempts} + 1` })
    .where(and(eq(smsOutbox.id, sql`(${newest})`), live, lt(smsOutbox.failedAttempts, MAX_WRONG_TRIES)))
    .returning();
  if (!judged) {
    const [spent] = await db.select({ id: smsOutbox.id }).from(smsOutbox).where(live).orderBy(desc(smsOutbox.id)).limit(1);
    if (spent) throw tooManyRequests(CODE_TEXT.tooManyWrong);
    throw badRequest(EXPIRED);
  }
  if (judged.code !== asciiDigits(String(code)).trim().padStart(6, '0')) throw badRequest(CODE_TEXT.wrong);
  // Conditional on usedAt so two concurrent uses of one code cannot both succeed.
  const [used] = await db.update(smsOutbox)
    .set({ usedAt: sql`now()`, failedAttempts: sql`${smsOutbox.failedAttempts} - 1` })
    .where(and(eq(smsOutbox.id, judged.id), isNull(smsOutbox.usedAt)))
    .returning();
  if (!used) throw badRequest(EXPIRED);
  return used;
}
