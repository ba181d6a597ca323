import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { smsOutbox } from '../../db/schema';
import { badRequest, tooManyRequests } from '../../http/envelope';

/** SMS verification codes (registration, password reset). SPEC: 6 digits, 10 minutes, single use. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_SENDS_PER_WINDOW = 5;
export const MAX_WRONG_TRIES = 5;

export type CodePurpose = 'register' | 'reset';

/** The port an SMS provider implements. The embedded default keeps the message in the outbox table only. */
export interface SmsProvider {
  send(phoneNumber: string, text: string): Promise<void>;
}
export const outboxSmsProvider: SmsProvider = { async send() {} };

/** Issues a new code; the 6th send for one phone and purpose within the window gets 429. */
export async function issueCode(db: Db, sms: SmsProvider, phoneNumber: string, purpose: CodePurpose, email: string | null = null) {
  const since = new Date(Date.now() - CODE_TTL_MS);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(smsOutbox)
    .where(and(eq(smsOutbox.phoneNumber, phoneNumber), eq(smsOutbox.purpose, purpose), gt(smsOutbox.createdAt, since)));
  if (n >= MAX_SENDS_PER_WINDOW) throw tooManyRequests('Too many codes were requested. Please try again in 10 minutes.');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.insert(smsOutbox).values({ phoneNumber, purpose, code, email, expiresAt: new Date(Date.now() + CODE_TTL_MS) });
  await sms.send(phoneNumber, `Your verification code is ${code}`);
  return code;
}

/**
 * Checks a code against the newest live one and uses it up. A wrong code counts a try;
 * the 6th wrong try (and any after it) gets 429 until a new code is issued.
 * Pass the database, not a transaction: a wrong try must stay counted when the caller rolls back.
 */
export async function consumeCode(db: Db, phoneNumber: string, purpose: CodePurpose, code: string | number) {
  const [live] = await db
    .select()
    .from(smsOutbox)
    .where(and(eq(smsOutbox.phoneNumber, phoneNumber), eq(smsOutbox.purpose, purpose), isNull(smsOutbox.usedAt), gt(smsOutbox.expiresAt, new Date())))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  if (!live) throw badRequest('The verification code has expired or was already used. Please request a new one.');
  if (live.failedAttempts >= MAX_WRONG_TRIES) throw tooManyRequests('Too many wrong codes. Please request a new code.');
  if (live.code !== String(code).padStart(6, '0')) {
    await db.update(smsOutbox).set({ failedAttempts: sql`${smsOutbox.failedAttempts} + 1` }).where(eq(smsOutbox.id, live.id));
    throw badRequest('The verification code is not correct.');
  }
  // Conditional on usedAt so two concurrent uses of one code cannot both succeed.
  const used = await db.update(smsOutbox).set({ usedAt: new Date() })
    .where(and(eq(smsOutbox.id, live.id), isNull(smsOutbox.usedAt))).returning({ id: smsOutbox.id });
  if (used.length === 0) throw badRequest('The verification code has expired or was already used. Please request a new one.');
  return live;
}
