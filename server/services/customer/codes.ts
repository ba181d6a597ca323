import { Type } from 'typebox';
import { and, desc, eq, exists, like, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { customerWallets, orders, smsOutbox, smsSends, users } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import type { AppContext, Caller } from '../../http/context';
import type { CodePurpose } from '../verification/codes';
import { scopeWhere } from '../../resources/scope';
import { registerSmsRoutes } from '../../messages/smsSends';
import { typedDigits } from '../../../domain/digits';

/**
 * The SMS outbox as staff read it on /ValidationCode: with the embedded SMS adapter this is
 * where a customer's registration or password-reset code can be looked up and read out; with a
 * real provider (issue 27) what was sent and whether it arrived, never the code.
 */
export const SmsCode = Obj('SmsCode', {
  id: Type.Integer(),
  phoneNumber: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  code: Type.Union([Type.String(), Type.Null()], { description: 'Only with the embedded outbox; null once a real SMS provider sends the codes.' }),
  provider: Type.Union([Type.String(), Type.Null()], { description: 'The SMS provider that sent it (null: the embedded outbox).' }),
  sendStatus: Type.Union([Type.String(), Type.Null()], { description: "sending, sent, delivered, undelivered or failed (the provider's receipts)." }),
  providerMessageId: Type.Union([Type.String(), Type.Null()]),
  cost: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  sendError: Type.Union([Type.String(), Type.Null()]),
  failedAttempts: Type.Integer(),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  usedAt: Type.Union([Type.String(), Type.Null()]),
});
const SmsCodeList = Obj('SmsCodeList', { data: Type.Array(SmsCode), totalCount: Type.Integer() });
const SmsCodeQuery = Obj('SmsCodeQuery', {
  ...pagingFields,
  PhoneNumber: Type.Optional(Type.String({ maxLength: 20, description: 'Digits of the phone, any part (Arabic-Indic digits too).' })),
});

/**
 * Whose codes a reader may see (docs/decisions.md "Hardening: accounts and limits"): a code lets its
 * reader reset a password, so ADMIN reads all, and a company admin or brand manager only the codes
 * of their own customers: a CUSTOMER account with that phone that has an order or a wallet in a brand
 * of their scope. A phone with no account (registration) or a staff account is nobody's customer.
 */
function readableCodes(db: Db, caller: Caller): SQL | undefined {
  if (caller?.role === 'ADMIN') return undefined;
  const customer = and(eq(users.phoneNumber, smsOutbox.phoneNumber), eq(users.role, 'CUSTOMER'), eq(users.isGuest, false));
  return exists(db.select({ one: sql`1` }).from(users).where(and(customer, or(
    exists(db.select({ one: sql`1` }).from(orders)
      .where(and(eq(orders.userId, users.id), scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId }) ?? sql`true`))),
    exists(db.select({ one: sql`1` }).from(customerWallets)
      .where(and(eq(customerWallets.userId, users.id), scopeWhere(caller, { brandId: customerWallets.brandId }) ?? sql`true`))),
  ))));
}

export function registerValidationCodes(app: FastifyInstance, ctx: AppContext) {
  const list = (purpose: CodePurpose) => async ({ query, caller }: { query: { SkipCount: number; MaxResultCount: number; PhoneNumber?: string }; caller: Caller }) => {
    // Only the embedded outbox (development) shows codes to staff; with a real provider, nobody reads them.
    const showCode = ctx.sms.embeddedOutbox;
    const digits = query.PhoneNumber ? typedDigits(query.PhoneNumber) : undefined;
    const where = and(eq(smsOutbox.purpose, purpose), digits ? like(smsOutbox.phoneNumber, `%${digits}%`) : undefined, readableCodes(ctx.db, caller));
    const { offset, limit } = pageOf(query);
    const [rows, [{ n }]] = await Promise.all([
      ctx.db.select({ r: smsOutbox, s: smsSends }).from(smsOutbox).leftJoin(smsSends, eq(smsSends.outboxId, smsOutbox.id))
        .where(where).orderBy(desc(smsOutbox.id)).limit(limit).offset(offset),
      ctx.db.select({ n: sql<number>`count(*)::int` }).from(smsOutbox).where(where),
    ]);
    return {
      data: rows.map(({ r, s }) => ({
        id: r.id, phoneNumber: r.phoneNumber, email: r.email, code: showCode ? r.code : null, failedAttempts: r.failedAttempts,
        provider: s?.provider ?? null, sendStatus: s?.status ?? null, providerMessageId: s?.providerId ?? null,
        cost: s?.cost == null ? null : Number(s.cost), currency: s?.currency ?? null, sendError: s?.error ?? null,
        createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString(), usedAt: r.usedAt?.toISOString() ?? null,
      })),
      totalCount: Number(n),
    };
  };
  service(app, ctx, 'Customer', [
    route({
      method: 'GET', name: 'GetALlconfermationCode', access: 'validationCodes.view',
      summary: 'Registration codes sent by SMS, newest first, with what the provider said of each. The admin reads all, others their own customers\' (a phone with no account is nobody\'s); the code itself only with the embedded SMS outbox.',
      query: SmsCodeQuery, result: SmsCodeList, handler: list('register'),
    }),
    route({
      method: 'GET', name: 'GetAllForgetCodes', access: 'validationCodes.view',
      summary: 'Password-reset codes sent by SMS, newest first, with what the provider said of each. The admin reads all, others their own customers\'; the code itself only with the embedded SMS outbox.',
      query: SmsCodeQuery, result: SmsCodeList, handler: list('reset'),
    }),
  ]);
  registerSmsRoutes(app, ctx);
}
