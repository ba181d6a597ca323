import { Type } from 'typebox';
import { and, desc, eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { smsOutbox } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import type { AppContext } from '../../http/context';
import type { CodePurpose } from '../verification/codes';

/**
 * The SMS outbox as staff read it on /ValidationCode: with the embedded SMS adapter this is
 * where a customer's registration or password-reset code can be looked up and read out.
 */
export const SmsCode = Obj('SmsCode', {
  id: Type.Integer(),
  phoneNumber: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  code: Type.String(),
  failedAttempts: Type.Integer(),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  usedAt: Type.Union([Type.String(), Type.Null()]),
});
const SmsCodeList = Obj('SmsCodeList', { data: Type.Array(SmsCode), totalCount: Type.Integer() });
const SmsCodeQuery = Obj('SmsCodeQuery', {
  ...pagingFields,
  PhoneNumber: Type.Optional(Type.String({ maxLength: 20, description: 'Digits of the phone, any part.' })),
});

export function registerValidationCodes(app: FastifyInstance, ctx: AppContext) {
  const list = (purpose: CodePurpose) => async ({ query }: { query: { SkipCount: number; MaxResultCount: number; PhoneNumber?: string } }) => {
    const digits = query.PhoneNumber?.replace(/\D/g, '');
    const where = and(eq(smsOutbox.purpose, purpose), digits ? like(smsOutbox.phoneNumber, `%${digits}%`) : undefined);
    const { offset, limit } = pageOf(query);
    const [rows, [{ n }]] = await Promise.all([
      ctx.db.select().from(smsOutbox).where(where).orderBy(desc(smsOutbox.id)).limit(limit).offset(offset),
      ctx.db.select({ n: sql<number>`count(*)::int` }).from(smsOutbox).where(where),
    ]);
    return {
      data: rows.map((r) => ({
        id: r.id, phoneNumber: r.phoneNumber, email: r.email, code: r.code, failedAttempts: r.failedAttempts,
        createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString(), usedAt: r.usedAt?.toISOString() ?? null,
      })),
      totalCount: Number(n),
    };
  };
  service(app, ctx, 'Customer', [
    route({
      method: 'GET', name: 'GetALlconfermationCode', access: 'validationCodes.view',
      summary: 'Registration codes sent by SMS, newest first.',
      query: SmsCodeQuery, result: SmsCodeList, handler: list('register'),
    }),
    route({
      method: 'GET', name: 'GetAllForgetCodes', access: 'validationCodes.view',
      summary: 'Password-reset codes sent by SMS, newest first.',
      query: SmsCodeQuery, result: SmsCodeList, handler: list('reset'),
    }),
  ]);
}
