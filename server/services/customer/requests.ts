import { Type } from 'typebox';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { customerRequests, users } from '../../db/schema';
import { badRequest, conflict, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere } from '../../resources/scope';
import { postToLedger } from '../../loyalty/ledger';
import { nextApprovalState, type ApprovalEvent, type ApprovalStatus } from '../../../machines/approvalMachine';

/**
 * Items and punches requests (/CustomerRequest): InsertUserPunchesInfoDetail asks to give a
 * customer punches or free items, GetUserPunchesInfoDetail lists the requests,
 * ApproveUserPunchesInfoDetail and UpdateRejectCustomerFreeItemsAndPunches decide one through the
 * approval machine. Only approval writes to the ledger, in the decision's transaction, with the
 * request's own key, so a request pays at most once.
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const CustomerRequest = Obj('CustomerRequest', {
  id: Type.Integer(),
  customerId: Type.Integer(),
  customerName: Type.String(),
  brandId: Type.Integer(),
  account: Type.String({ description: "'punches' or 'freeItems'." }),
  amount: Type.Integer(),
  reason: Type.String(),
  status: Type.String({ description: "'pending', 'approved' or 'rejected' (machines/approvalMachine.ts)." }),
  requestedBy: Nullable(Type.Integer()),
  decidedBy: Nullable(Type.Integer()),
  decidedAt: Nullable(Type.String()),
  createdAt: Type.String(),
});
const CustomerRequestList = Obj('CustomerRequestList', { data: Type.Array(CustomerRequest), totalCount: Type.Integer() });

type Row = typeof customerRequests.$inferSelect;
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const itemOf = (r: Row, customerName: string) => ({
  id: r.id, customerId: r.userId, customerName, brandId: r.brandId, account: r.account, amount: r.amount, reason: r.reason, status: r.status,
  requestedBy: r.requestedBy, decidedBy: r.decidedBy, decidedAt: iso(r.decidedAt), createdAt: iso(r.createdAt)!,
});

const inScope = (caller: Caller) => scopeWhere(caller, { brandId: customerRequests.brandId });
const DECIDED = (id: number, status: string) => `Request ${id} is ${status} already.`;

async function oneRequest(db: Db, id: number) {
  const [row] = await db.select({ r: customerRequests, name: users.fullName }).from(customerRequests)
    .innerJoin(users, eq(users.id, customerRequests.userId)).where(eq(customerRequests.id, id));
  return itemOf(row.r, row.name);
}

/** Runs one decision under the request's row lock; approval posts the ledger row in the same transaction. */
async function decide(db: Db, caller: Caller, id: number, event: ApprovalEvent) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(customerRequests).where(and(eq(customerRequests.id, id), inScope(caller))).for('update');
    if (!row) throw notFound('Request');
    const next = nextApprovalState(row.status as ApprovalStatus, event);
    if (!next) throw conflict(DECIDED(id, row.status));
    await tx.update(customerRequests).set({ status: next, decidedBy: caller?.id ?? null, decidedAt: new Date() }).where(eq(customerRequests.id, id));
    if (next === 'approved') {
      await postToLedger(tx, {
        userId: row.userId, brandId: row.brandId, account: row.account as 'punches' | 'freeItems', amount: row.amount,
        reason: `Request ${row.id} approved: ${row.reason}`, reference: { type: 'request', id: row.id },
        createdBy: caller?.id ?? null, key: `request:${row.id}:approved`,
      });
    }
  });
  return oneRequest(db, id);
}

export function registerCustomerRequests(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Customer', [
    route({
      method: 'POST', name: 'InsertUserPunchesInfoDetail', access: 'requests.manage',
      summary: 'Asks to give a customer punches or free items in a brand; nothing is paid until the request is approved.',
      body: Obj('InsertUserPunchesInfoDetailInput', {
        customerId: Id, brandId: Id,
        account: Type.Enum(['punches', 'freeItems']),
        amount: Type.Integer({ minimum: 1, maximum: 1000 }),
        reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
      }),
      result: CustomerRequest,
      async handler({ body, caller, ctx }) {
        const [user] = await ctx.db.select({ id: users.id }).from(users).where(and(eq(users.id, body.customerId), eq(users.role, 'CUSTOMER'), eq(users.isGuest, false)));
        if (!user) throw notFound('Customer');
        if (!(await placeInScope(ctx.db, caller, 'brand', body.brandId))) throw badRequest('brandId: there is no such brand.');
        const [row] = await ctx.db.insert(customerRequests).values({
          userId: body.customerId, brandId: body.brandId, account: body.account, amount: body.amount, reason: body.reason.trim(), requestedBy: caller?.id ?? null,
        }).returning();
        return oneRequest(ctx.db, row.id);
      },
    }),
    route({
      method: 'GET', name: 'GetUserPunchesInfoDetail', access: 'requests.manage',
      summary: 'Items and punches requests in the brands of the caller, newest first.',
      query: Obj('GetUserPunchesInfoDetailQuery', { ...pagingFields, Status: Type.Optional(Type.Enum(['pending', 'approved', 'rejected'])), CustomerId: Type.Optional(Id) }),
      result: CustomerRequestList,
      async handler({ query, caller, ctx }) {
        const where = and(inScope(caller), query.Status ? eq(customerRequests.status, query.Status) : undefined,
          query.CustomerId ? eq(customerRequests.userId, query.CustomerId) : undefined);
        const { offset, limit } = pageOf(query);
        const [rows, [{ n }]] = await Promise.all([
          ctx.db.select({ r: customerRequests, name: users.fullName }).from(customerRequests).innerJoin(users, eq(users.id, customerRequests.userId))
            .where(where).orderBy(desc(customerRequests.id)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(customerRequests).where(where),
        ]);
        return { data: rows.map(({ r, name }) => itemOf(r, name)), totalCount: Number(n) };
      },
    }),
    route({
      method: 'PUT', name: 'ApproveUserPunchesInfoDetail', access: 'requests.manage',
      summary: 'Approves a pending request: its punches or free items are written to the ledger, once.',
      body: Obj('ApproveUserPunchesInfoDetailInput', { id: Id }), result: CustomerRequest,
      handler: ({ body, caller, ctx }) => decide(ctx.db, caller, body.id, { type: 'request.approve' }),
    }),
    route({
      method: 'PUT', name: 'UpdateRejectCustomerFreeItemsAndPunches', access: 'requests.manage',
      summary: 'Rejects a pending request; nothing is written to the ledger.',
      body: Obj('UpdateRejectCustomerFreeItemsAndPunchesInput', { id: Id }), result: CustomerRequest,
      handler: ({ body, caller, ctx }) => decide(ctx.db, caller, body.id, { type: 'request.reject' }),
    }),
  ]);
}
