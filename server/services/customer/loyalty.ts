import { randomUUID } from 'node:crypto';
import { Type, type Static, type TSchema } from 'typebox';
import { and, asc, desc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { brands, customerWallets, orders, rewardCardScans, users, walletLedger } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere } from '../../resources/scope';
import { ACCOUNTS, amountSchema, keyUse, lockedBalance, MONEY_ACCOUNTS, postToLedger, setBalance, type Account } from '../../loyalty/ledger';
import type { Capability } from '../../../domain/permissions';
import { carsOf, CustomerCar } from '../cars/cars';
import { grantAsRequest } from './grants';
import { CustomerDetailFields, saveCustomerDetails } from './shop';

/**
 * The staff side of customers and their balances (SPEC.md 2.2, 6, 7 "Customers"). Every balance
 * change goes through the ledger (server/loyalty/ledger.ts); the ledger row names who made it.
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const CustomerBalances = Obj('CustomerBalances', {
  customerId: Type.Integer(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  wallet: Type.Number(),
  credit: Type.Number(),
  points: Type.Integer(),
  punches: Type.Integer(),
  freeItems: Type.Integer(),
});
export const CustomerListItem = Obj('CustomerListItem', {
  id: Type.Integer(),
  fullName: Type.String(),
  phoneNumber: Nullable(Type.String()),
  emailAddress: Nullable(Type.String()),
  createdAt: Type.String(),
});
export const CustomerList = Obj('CustomerList', { data: Type.Array(CustomerListItem), totalCount: Type.Integer() });
export const CustomerProfile = Obj('CustomerProfile', {
  id: Type.Integer(),
  userName: Type.String(),
  fullName: Type.String(),
  phoneNumber: Nullable(Type.String()),
  emailAddress: Nullable(Type.String()),
  gender: Nullable(Type.String()),
  birthDate: Nullable(Type.String()),
  createdAt: Type.String(),
  /** One entry per brand of the caller's scope in which the customer has a wallet. */
  balances: Type.Array(CustomerBalances),
});
export const LedgerRow = Obj('LedgerRow', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  account: Type.String(),
  amount: Type.Number(),
  reason: Type.String(),
  referenceType: Type.String(),
  referenceId: Nullable(Type.Integer()),
  createdBy: Nullable(Type.Integer()),
  createdByName: Nullable(Type.String()),
  createdAt: Type.String(),
});
const LedgerPage = Obj('LedgerPage', { data: Type.Array(LedgerRow), totalCount: Type.Integer() });
export const AdjustmentResult = Obj('AdjustmentResult', {
  customerId: Type.Integer(),
  brandId: Type.Integer(),
  account: Type.String(),
  balance: Type.Number(),
  /** False when nothing changed this time: the idempotency key had been used already, or the grant became a request. */
  applied: Type.Boolean(),
  /**
   * The pending request this call made instead of applying (docs/decisions.md "Loyalty: four
   * eyes": a grant by anyone below ADMIN waits for another approver); the balance is unchanged. Null when applied.
   */
  requestId: Nullable(Type.Integer()),
});

/** UpdateCustomerFreeItemsAndPunches' answer: the balances, and the requests its increases became (four eyes; empty when all applied). */
const PunchesAdjustmentResult = Obj('PunchesAdjustmentResult', { ...CustomerBalances.properties, requestIds: Type.Array(Type.Integer()) });

const reason = Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why the balance changes; kept on the ledger row.' });
const idempotencyKey = Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A retry with the same key changes nothing.' }));

const textOf = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/**
 * The customers a staff member may see (SPEC.md 6): ADMIN every registered customer, the others
 * the customers with a wallet (a subscription), an order or a reward card scan in a brand of their scope.
 * With `brandId`, a brand the caller was checked to reach (a branch user's: their branch's), the
 * customers of that one brand, for everyone, ADMIN included: a customer joins a brand by their own
 * action (an order, registering, an invitation), never by a staff call.
 */
export function customerVisibleTo(db: Db | Tx, caller: Caller, brandId?: number): SQL {
  const registered = and(eq(users.role, 'CUSTOMER'), eq(users.isGuest, false))!;
  if (caller?.role === 'ADMIN' && brandId === undefined) return registered;
  const within = (cols: { brandId: PgColumn; branchId?: PgColumn }) =>
    (brandId === undefined ? scopeWhere(caller, cols) : eq(cols.brandId, brandId)) ?? sql`true`;
  return and(registered, or(
    exists(db.select({ one: sql`1` }).from(customerWallets)
      .where(and(eq(customerWallets.userId, users.id), within({ brandId: customerWallets.brandId })))),
    exists(db.select({ one: sql`1` }).from(orders)
      .where(and(eq(orders.userId, users.id), within({ brandId: orders.brandId, branchId: orders.branchId })))),
    exists(db.select({ one: sql`1` }).from(rewardCardScans)
      .where(and(eq(rewardCardScans.userId, users.id), within({ brandId: rewardCardScans.brandId })))),
  ))!;
}

/**
 * The one rule for every staff call that names customers (issue 20): of `ids`, those visible to
 * the caller (customerVisibleTo), and with `brandId` those that are that brand's customers.
 */
export async function visibleCustomerIds(db: Db | Tx, caller: Caller, ids: number[], brandId?: number): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: users.id }).from(users).where(and(inArray(users.id, ids), customerVisibleTo(db, caller, brandId)));
  return new Set(rows.map((r) => r.id));
}

/**
 * A customer the caller may read, add or credit (see visibleCustomerIds), or exactly the 404 of
 * an unknown id: a refusal never tells whether someone else's customer exists.
 */
export async function visibleCustomer(db: Db | Tx, caller: Caller, id: number, brandId?: number): Promise<number> {
  if (!(await visibleCustomerIds(db, caller, [id], brandId)).has(id)) throw notFound('Customer');
  return id;
}

export const searchOf = (search: string | undefined) => {
  const text = search?.trim();
  if (!text) return undefined;
  const digits = text.replace(/\D/g, '');
  return or(ilike(users.fullName, `%${text}%`), digits.length >= 2 ? ilike(users.phoneNumber, `%${digits}%`) : undefined);
};

export async function customerPage(db: Db, where: SQL | undefined, q: { SkipCount: number; MaxResultCount: number }) {
  const { offset, limit } = pageOf(q);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return {
    data: rows.map((u) => ({ id: u.id, fullName: u.fullName, phoneNumber: u.phoneNumber, emailAddress: u.emailAddress, createdAt: textOf(u.createdAt) })),
    totalCount: Number(n),
  };
}

async function brandInScope(db: Db, caller: Caller, brandId: number) {
  if (!(await placeInScope(db, caller, 'brand', brandId))) throw badRequest('brandId: there is no such brand.');
}

async function balancesOf(db: Db, caller: Caller, customerId: number, brandId?: number) {
  const rows = await db.select({ w: customerWallets, brandName: brands.name }).from(customerWallets)
    .innerJoin(brands, eq(brands.id, customerWallets.brandId))
    .where(and(eq(customerWallets.userId, customerId), brandId ? eq(customerWallets.brandId, brandId) : undefined,
      scopeWhere(caller, { brandId: customerWallets.brandId })))
    .orderBy(asc(customerWallets.brandId));
  return rows.map(({ w, brandName }) => ({
    customerId, brandId: w.brandId, brandName, wallet: Number(w.balance), credit: Number(w.credit), points: w.points, punches: w.punches, freeItems: w.freeItems,
  }));
}

const BalanceQuery = (title: string) => Obj(title, { CustomerId: Id, BrandId: Id });

async function balanceFor(db: Db, caller: Caller, q: { CustomerId: number; BrandId: number }) {
  await brandInScope(db, caller, q.BrandId);
  await visibleCustomer(db, caller, q.CustomerId);
  const [b] = await balancesOf(db, caller, q.CustomerId, q.BrandId);
  const [brand] = await db.select({ name: brands.name }).from(brands).where(eq(brands.id, q.BrandId));
  return b ?? { customerId: q.CustomerId, brandId: q.BrandId, brandName: brand?.name ?? '', wallet: 0, credit: 0, points: 0, punches: 0, freeItems: 0 };
}

/**
 * One adjustment call: `set` calls name the wanted balance (the difference is the ledger row),
 * `add` calls the amount to add. Below ADMIN a raise becomes a request for another approver
 * (`grantAsRequest`, docs/decisions.md "Loyalty: four eyes"); a decrease applies at once. The key is the client's (a retry changes nothing) or a new one.
 */
interface Adjustment { name: string; access: Capability; account: Account; mode: 'set' | 'add'; summary: string }

function adjustmentRoute(a: Adjustment) {
  const valueField = a.mode === 'set' ? 'balance' : 'amount';
  const value: TSchema = a.mode === 'set'
    ? amountSchema(a.account, 'balance', { minimum: 0, description: MONEY_ACCOUNTS.includes(a.account) ? 'The new balance (KD).' : 'The new count.' })
    : amountSchema(a.account, 'grant', { minimum: 0, description: MONEY_ACCOUNTS.includes(a.account) ? 'KD to add.' : 'How many to add.' });
  const body = Obj(`${a.name}Input`, { customerId: Id, brandId: Id, [valueField]: value, reason, idempotencyKey });
  return route({
    method: 'PUT', name: a.name, access: a.access, summary: a.summary, body, result: AdjustmentResult,
    async handler({ body, caller, ctx }) {
      const input = body as { customerId: number; brandId: number; reason: string; idempotencyKey?: string } & Record<string, number>;
      return adjust(ctx.db, caller, a, input.customerId, input.brandId, input[valueField], input.reason, input.idempotencyKey);
    },
  });
}

async function adjust(db: Db, caller: Caller, a: Adjustment, customerId: number, brandId: number, value: number, why: string, clientKey: string | undefined) {
  const { account, mode } = a;
  await brandInScope(db, caller, brandId);
  await visibleCustomer(db, caller, customerId, brandId);
  const valueField = mode === 'set' ? 'balance' : 'amount';
  const key = `adjustment:${a.name}:${account}:${customerId}:${brandId}:${clientKey ?? randomUUID()}`;
  const entry = {
    userId: customerId, brandId, account, reason: why.trim(), reference: { type: 'adjustment' as const, id: null },
    createdBy: caller?.id ?? null, key, grantField: valueField, fingerprint: clientKey === undefined ? undefined : `${valueField}=${value}`,
  };
  const posted = await db.transaction(async (tx) => (await grantAsRequest(tx, caller, entry, mode === 'set' ? { set: value } : { add: value }))
    ?? (mode === 'set' ? setBalance(tx, { ...entry, balance: value }) : postToLedger(tx, { ...entry, amount: value })));
  return { customerId, brandId, account, balance: posted.balance, applied: posted.applied, requestId: 'requestId' in posted ? posted.requestId : null };
}

export function registerCustomerLoyalty(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Cars', [
    route({
      method: 'GET', name: 'GetCustomerCarsForDashBoard', access: 'customers.manage',
      summary: "A customer's cars, on /customers/{id}.",
      query: Obj('GetCustomerCarsForDashBoardQuery', { CustomerId: Id }),
      result: Type.Array(CustomerCar),
      async handler({ query, caller, ctx }) {
        return carsOf(ctx.db, await visibleCustomer(ctx.db, caller, query.CustomerId));
      },
    }),
  ]);
  const adjustments: Adjustment[] = [
    { name: 'UpdateCustomerWalletBalance', access: 'customers.manage', account: 'wallet', mode: 'set', summary: "Sets a customer's wallet balance in a brand; the difference is a ledger row with the reason." },
    { name: 'UpdateCustomerWalletBalanceByCompanyManager', access: 'customers.companyBalances', account: 'wallet', mode: 'set', summary: "A company manager sets a customer's wallet balance." },
    { name: 'UpdateCustomerCreditBalanceByCompanyManager', access: 'customers.companyBalances', account: 'credit', mode: 'set', summary: "A company manager sets a customer's credit balance." },
    { name: 'UpdateCustomerCreditWalletBalance', access: 'customers.manage', account: 'credit', mode: 'set', summary: "Sets a customer's credit balance in a brand." },
    { name: 'UpdateDepositWalletByid', access: 'customers.manage', account: 'wallet', mode: 'add', summary: "Deposits an amount into a customer's wallet." },
    { name: 'UpdateCreditDepositWalletByid', access: 'customers.manage', account: 'credit', mode: 'add', summary: "Deposits an amount into a customer's credit." },
    { name: 'UpdateCustomerPointsBalance', access: 'customers.manage', account: 'points', mode: 'set', summary: "Sets a customer's points in a brand; the difference is a ledger row with the reason." },
  ];
  service(app, ctx, 'Customer', [
    ...adjustments.map(adjustmentRoute),
    route({
      method: 'PUT', name: 'UpdateCustomerFreeItemsAndPunches', access: 'customers.manage',
      summary: "Sets a customer's punches and free items in a brand; each difference is a ledger row with the reason.",
      body: Obj('UpdateCustomerFreeItemsAndPunchesInput', {
        customerId: Id, brandId: Id, reason, idempotencyKey,
        punches: amountSchema('punches', 'balance', { minimum: 0, description: 'The new punch count.' }),
        freeItems: amountSchema('freeItems', 'balance', { minimum: 0, description: 'The new free item count.' }),
      }),
      result: PunchesAdjustmentResult,
      async handler({ body, caller, ctx }) {
        await brandInScope(ctx.db, caller, body.brandId);
        await visibleCustomer(ctx.db, caller, body.customerId, body.brandId);
        const requestIds: number[] = [];
        const suffix = body.idempotencyKey ?? randomUUID();
        const key = (account: Account) => `adjustment:UpdateCustomerFreeItemsAndPunches:${account}:${body.customerId}:${body.brandId}:${suffix}`;
        // One fingerprint for the pair: a retry is the same call as a whole or a 422, never half applied.
        const fingerprint = body.idempotencyKey === undefined ? undefined : `punches=${body.punches};freeItems=${body.freeItems}`;
        const base = { userId: body.customerId, brandId: body.brandId, reason: body.reason.trim(), reference: { type: 'adjustment' as const, id: null }, createdBy: caller?.id ?? null, fingerprint };
        await ctx.db.transaction(async (tx) => {
          await lockedBalance(tx, body.customerId, body.brandId, 'punches');
          if (fingerprint !== undefined && (await keyUse(tx, [key('punches'), key('freeItems')], fingerprint)) === 'replay') return;
          for (const account of ['punches', 'freeItems'] as const) {
            const entry = { ...base, account, balance: body[account], key: key(account), grantField: account };
            const asked = await grantAsRequest(tx, caller, entry, { set: body[account] });
            if (asked) requestIds.push(asked.requestId);
            else await setBalance(tx, entry);
          }
        });
        return { ...(await balanceFor(ctx.db, caller, { CustomerId: body.customerId, BrandId: body.brandId })), requestIds };
      },
    }),
    route({
      method: 'GET', name: 'GetCustomerWalletPunchesAndFreeItemsDetails', access: 'customers.manage',
      summary: "A customer's wallet, credit, points, punches and free items in a brand.",
      query: BalanceQuery('GetCustomerWalletPunchesAndFreeItemsDetailsQuery'), result: CustomerBalances,
      handler: ({ query, caller, ctx }) => balanceFor(ctx.db, caller, query),
    }),
    route({
      method: 'GET', name: 'GetCustomerWalletBalanceByCompanyManager', access: 'customers.companyBalances',
      summary: "A customer's wallet balance in a brand (KD).",
      query: BalanceQuery('GetCustomerWalletBalanceByCompanyManagerQuery'), result: Type.Number(),
      handler: async ({ query, caller, ctx }) => (await balanceFor(ctx.db, caller, query)).wallet,
    }),
    route({
      method: 'GET', name: 'GetCustomerCreditBalanceByCompanyManager', access: 'customers.companyBalances',
      summary: "A customer's credit balance in a brand (KD).",
      query: BalanceQuery('GetCustomerCreditBalanceByCompanyManagerQuery'), result: Type.Number(),
      handler: async ({ query, caller, ctx }) => (await balanceFor(ctx.db, caller, query)).credit,
    }),
    route({
      method: 'GET', name: 'GetCustomersAccessibleForCurrentUser', access: 'customers.manage',
      summary: 'The customers the caller may see (SPEC.md 6), newest first, with search by name and phone.',
      query: Obj('GetCustomersAccessibleForCurrentUserQuery', { ...pagingFields, Search: Type.Optional(Type.String({ maxLength: 100 })) }),
      result: CustomerList,
      handler: ({ query, caller, ctx }) => customerPage(ctx.db, and(customerVisibleTo(ctx.db, caller), searchOf(query.Search)), query),
    }),
    route({
      method: 'GET', name: 'GetCustomersSubscribedToBrandByBrandID', access: 'customers.manage',
      summary: "A brand's subscribers: the customers with a wallet in it.",
      query: Obj('GetCustomersSubscribedToBrandByBrandIDQuery', { ...pagingFields, BrandId: Id, Search: Type.Optional(Type.String({ maxLength: 100 })) }),
      result: CustomerList,
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.BrandId);
        const subscribed = exists(ctx.db.select({ one: sql`1` }).from(customerWallets)
          .where(and(eq(customerWallets.userId, users.id), eq(customerWallets.brandId, query.BrandId))));
        return customerPage(ctx.db, and(eq(users.role, 'CUSTOMER'), eq(users.isGuest, false), subscribed, searchOf(query.Search)), query);
      },
    }),
    route({
      method: 'GET', name: 'GetCustomerDetailsById', access: 'customers.manage',
      summary: "A customer's profile and balances in the brands of the caller's scope.",
      query: Obj('GetCustomerDetailsByIdQuery', { Id }),
      result: CustomerProfile,
      async handler({ query, caller, ctx }) {
        const [user] = await ctx.db.select().from(users).where(and(eq(users.id, query.Id), customerVisibleTo(ctx.db, caller)));
        if (!user) throw notFound('Customer');
        return {
          id: user.id, userName: user.userName, fullName: user.fullName, phoneNumber: user.phoneNumber, emailAddress: user.emailAddress,
          gender: user.gender, birthDate: user.birthDate, createdAt: textOf(user.createdAt), balances: await balancesOf(ctx.db, caller, user.id),
        };
      },
    }),
    route({
      method: 'PUT', name: 'UpdateCustomerDetailsFromAdminPanel', access: 'customers.manage',
      summary: "Staff change a visible customer's name, e-mail, gender and birth date (the phone is the login and stays).",
      body: Obj('UpdateCustomerDetailsFromAdminPanelInput', { id: Id, ...CustomerDetailFields }),
      result: CustomerListItem,
      async handler({ body, caller, ctx }) {
        const id = await visibleCustomer(ctx.db, caller, body.id);
        await saveCustomerDetails(ctx.db, id, body);
        const [u] = await ctx.db.select().from(users).where(eq(users.id, id));
        return { id: u.id, fullName: u.fullName, phoneNumber: u.phoneNumber, emailAddress: u.emailAddress, createdAt: textOf(u.createdAt) };
      },
    }),
    route({
      method: 'GET', name: 'GetCustomerLedger', access: 'customers.manage',
      summary: "A customer's ledger rows in the brands of the caller's scope, newest first (the balance history on /customers/{id}).",
      query: Obj('GetCustomerLedgerQuery', {
        ...pagingFields, CustomerId: Id, BrandId: Type.Optional(Id),
        Account: Type.Optional(Type.Enum([...ACCOUNTS])),
      }),
      result: LedgerPage,
      async handler({ query, caller, ctx }) {
        await visibleCustomer(ctx.db, caller, query.CustomerId);
        const where = and(eq(walletLedger.userId, query.CustomerId), query.BrandId ? eq(walletLedger.brandId, query.BrandId) : undefined,
          query.Account ? eq(walletLedger.account, query.Account) : undefined, scopeWhere(caller, { brandId: walletLedger.brandId }));
        const { offset, limit } = pageOf(query);
        const author = sql<string | null>`(select "full_name" from "users" where "id" = ${walletLedger.createdBy})`;
        const [rows, [{ n }]] = await Promise.all([
          ctx.db.select({ row: walletLedger, createdByName: author }).from(walletLedger).where(where).orderBy(desc(walletLedger.id)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(walletLedger).where(where),
        ]);
        return {
          data: rows.map(({ row, createdByName }) => ({
            id: row.id, brandId: row.brandId, account: row.account, amount: Number(row.amount), reason: row.reason,
            referenceType: row.referenceType, referenceId: row.referenceId, createdBy: row.createdBy, createdByName, createdAt: textOf(row.createdAt),
          })),
          totalCount: Number(n),
        };
      },
    }),
  ]);
}

export type CustomerBalancesItem = Static<typeof CustomerBalances>;
