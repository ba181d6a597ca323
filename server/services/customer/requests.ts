import { Type, type TSchema } from 'typebox';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { brands, customerRequests, users } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere } from '../../resources/scope';
import { aboveGrant, amountSchema, CEILINGS, postToLedger, type Account } from '../../loyalty/ledger';
import { visibleCustomer } from './loyalty';
import type { Capability } from '../../../domain/permissions';
import { approvalRefusal, nextApprovalState, OWN_REQUEST, type ApprovalEvent, type ApprovalStatus } from '../../../machines/approvalMachine';

/**
 * Customer requests, decided through the approval machine. Two kinds share one table and one
 * decision path (docs/decisions.md "Loyalty: /Request", "Loyalty: four eyes"):
 * - points, punches and free items (/CustomerRequest): InsertUserPunchesInfoDetail,
 *   GetUserPunchesInfoDetail, ApproveUserPunchesInfoDetail, UpdateRejectCustomerFreeItemsAndPunches;
 *   decided by requests.decideCounts (ADMIN, COMPANY_ADMIN, BRAND_MANAGER);
 * - wallet and credit balance requests (/Request): InsertCustomerBalanceRequest,
 *   GetCustomerBalanceRequests, ApproveCustomerBalanceRequest, RejectCustomerBalanceRequest;
 *   decided by requests.decideMoney (ADMIN, COMPANY_ADMIN).
 * Four eyes: nobody decides a request they asked for (the machine's guard, under the row lock; a
 * 403). A reject names its reason. Only approval writes to the ledger, in the decision's
 * transaction, with the request's own key, so a request pays at most once. A grant through a direct
 * adjustment call by a role without loyalty.grantDirect is a request too (`grantAsRequest`).
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const reasonText = (description: string) => Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description });
const reason = reasonText('Why the customer should get this.');
/** A reject's reason, for every four-eyes request (loyalty's and notifications'). */
export const decisionReason = reasonText('Why the request is rejected; kept with it.');

export const CustomerRequest = Obj('CustomerRequest', {
  id: Type.Integer(),
  customerId: Type.Integer(),
  customerName: Type.String(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  account: Type.String({ description: "'points', 'punches' or 'freeItems' (/CustomerRequest); 'wallet' or 'credit' (/Request)." }),
  amount: Type.Number({ description: 'How many points, punches or free items, or KD for wallet and credit.' }),
  reason: Type.String(),
  status: Type.String({ description: "'pending', 'approved' or 'rejected' (machines/approvalMachine.ts)." }),
  requestedBy: Nullable(Type.Integer()),
  requestedByName: Nullable(Type.String()),
  decidedBy: Nullable(Type.Integer()),
  decidedAt: Nullable(Type.String()),
  decisionReason: Nullable(Type.String({ description: 'Why the request was rejected.' })),
  createdAt: Type.String(),
});
const CustomerRequestList = Obj('CustomerRequestList', { data: Type.Array(CustomerRequest), totalCount: Type.Integer() });

type Row = typeof customerRequests.$inferSelect;

/** One kind of request: its accounts, how its amount is given, its calls and who may ask and decide. */
interface RequestKind {
  accounts: readonly Account[];
  amount: TSchema;
  names: { insert: string; list: string; approve: string; reject: string };
  access: { ask: Capability; decide: Capability };
  what: string;
}

const ITEMS_AND_PUNCHES: RequestKind = {
  accounts: ['points', 'punches', 'freeItems'],
  amount: amountSchema(['points', 'punches', 'freeItems'], 'grant', { minimum: 1, description: 'How many, a whole number.' }),
  names: { insert: 'InsertUserPunchesInfoDetail', list: 'GetUserPunchesInfoDetail', approve: 'ApproveUserPunchesInfoDetail', reject: 'UpdateRejectCustomerFreeItemsAndPunches' },
  access: { ask: 'requests.manage', decide: 'requests.decideCounts' },
  what: 'points, punches or free items',
};

const WALLET_AND_CREDIT: RequestKind = {
  accounts: ['wallet', 'credit'],
  amount: amountSchema(['wallet', 'credit'], 'grant', { minimum: 0.001, description: 'KD, up to 3 decimals.' }),
  names: { insert: 'InsertCustomerBalanceRequest', list: 'GetCustomerBalanceRequests', approve: 'ApproveCustomerBalanceRequest', reject: 'RejectCustomerBalanceRequest' },
  access: { ask: 'requests.manage', decide: 'requests.decideMoney' },
  what: 'wallet or credit money',
};
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const itemOf = (r: Row, x: { customerName: string; brandName: string; requestedByName: string | null }) => ({
  id: r.id, customerId: r.userId, customerName: x.customerName, brandId: r.brandId, brandName: x.brandName, account: r.account, amount: Number(r.amount),
  reason: r.reason, status: r.status, requestedBy: r.requestedBy, requestedByName: x.requestedByName, decidedBy: r.decidedBy,
  decidedAt: iso(r.decidedAt), decisionReason: r.decisionReason, createdAt: iso(r.createdAt)!,
});
const requestRows = (db: Db) => db.select({
  r: customerRequests, customerName: users.fullName, brandName: brands.name,
  requestedByName: sql<string | null>`(select "full_name" from "users" where "id" = ${customerRequests.requestedBy})`,
}).from(customerRequests).innerJoin(users, eq(users.id, customerRequests.userId)).innerJoin(brands, eq(brands.id, customerRequests.brandId));

/** The caller's brands, and the accounts of one kind of request. */
const inScope = (caller: Caller, accounts: readonly Account[]) =>
  and(scopeWhere(caller, { brandId: customerRequests.brandId }), inArray(customerRequests.account, [...accounts]));
const DECIDED = (id: number, status: string) => `Request ${id} is ${status} already.`;

async function oneRequest(db: Db, id: number) {
  const [{ r, ...names }] = await requestRows(db).where(eq(customerRequests.id, id));
  return itemOf(r, names);
}

/**
 * Runs one decision under the request's row lock: the approval machine refuses a decided request
 * (409) and its author (403), so two approvals at once pay once and nobody approves their own
 * grant, however many tries race. Approval posts the ledger row in the same transaction.
 */
async function decide(db: Db, caller: Caller, kind: RequestKind, id: number, event: ApprovalEvent, decisionReason: string | null) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(customerRequests).where(and(eq(customerRequests.id, id), inScope(caller, kind.accounts))).for('update');
    if (!row) throw notFound('Request');
    const parties = { requestedBy: row.requestedBy, decidedBy: caller?.id ?? null };
    const next = nextApprovalState(row.status as ApprovalStatus, event, parties);
    if (!next) {
      if (approvalRefusal(row.status as ApprovalStatus, event, parties) === 'ownRequest') throw forbidden(OWN_REQUEST);
      throw conflict(DECIDED(id, row.status));
    }
    await tx.update(customerRequests).set({ status: next, decidedBy: parties.decidedBy, decidedAt: new Date(), decisionReason })
      .where(eq(customerRequests.id, id));
    if (next === 'approved') {
      await postToLedger(tx, {
        userId: row.userId, brandId: row.brandId, account: row.account as Account, amount: Number(row.amount),
        reason: `Request ${row.id} approved: ${row.reason}`, reference: { type: 'request', id: row.id },
        createdBy: parties.decidedBy, key: `request:${row.id}:approved`,
      });
    }
  });
  return oneRequest(db, id);
}

function requestRoutes(kind: RequestKind) {
  const { names, access, accounts } = kind;
  return [
    route({
      method: 'POST', name: names.insert, access: access.ask,
      summary: `Asks to give a customer ${kind.what} in a brand; nothing is paid until the request is approved.`,
      body: Obj(`${names.insert}Input`, {
        customerId: Id, brandId: Id,
        account: Type.Enum([...accounts]),
        amount: kind.amount,
        reason,
      }),
      result: CustomerRequest,
      async handler({ body, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'brand', body.brandId))) throw badRequest('brandId: there is no such brand.');
        await visibleCustomer(ctx.db, caller, body.customerId, body.brandId);
        if (Number(body.amount) > CEILINGS[body.account].grant) throw aboveGrant(body.account, 'amount');
        const [row] = await ctx.db.insert(customerRequests).values({
          userId: body.customerId, brandId: body.brandId, account: body.account, amount: String(body.amount), reason: body.reason.trim(), requestedBy: caller?.id ?? null,
        }).returning();
        return oneRequest(ctx.db, row.id);
      },
    }),
    route({
      method: 'GET', name: names.list, access: access.ask,
      summary: `Requests for ${kind.what} in the brands of the caller, newest first.`,
      query: Obj(`${names.list}Query`, { ...pagingFields, Status: Type.Optional(Type.Enum(['pending', 'approved', 'rejected'])), CustomerId: Type.Optional(Id) }),
      result: CustomerRequestList,
      async handler({ query, caller, ctx }) {
        const where = and(inScope(caller, accounts), query.Status ? eq(customerRequests.status, query.Status) : undefined,
          query.CustomerId ? eq(customerRequests.userId, query.CustomerId) : undefined);
        const { offset, limit } = pageOf(query);
        const [rows, [{ n }]] = await Promise.all([
          requestRows(ctx.db).where(where).orderBy(desc(customerRequests.id)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(customerRequests).where(where),
        ]);
        return { data: rows.map(({ r, ...names }) => itemOf(r, names)), totalCount: Number(n) };
      },
    }),
    route({
      method: 'PUT', name: names.approve, access: access.decide,
      summary: `Approves a pending request: its ${kind.what} are written to the ledger, once. Never by the one who asked (403).`,
      body: Obj(`${names.approve}Input`, { id: Id }), result: CustomerRequest,
      handler: ({ body, caller, ctx }) => decide(ctx.db, caller, kind, body.id, { type: 'request.approve' }, null),
    }),
    route({
      method: 'PUT', name: names.reject, access: access.decide,
      summary: 'Rejects a pending request with a reason; nothing is written to the ledger. Never by the one who asked (403).',
      body: Obj(`${names.reject}Input`, { id: Id, reason: decisionReason }), result: CustomerRequest,
      handler: ({ body, caller, ctx }) => decide(ctx.db, caller, kind, body.id, { type: 'request.reject' }, body.reason.trim()),
    }),
  ];
}

export function registerCustomerRequests(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Customer', [...requestRoutes(ITEMS_AND_PUNCHES), ...requestRoutes(WALLET_AND_CREDIT)]);
}
