import { Type, type Static } from 'typebox';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, brands, currencies, orders, payments } from '../db/schema';
import { notFound, Obj } from '../http/envelope';
import { pageOf } from '../http/paging';
import { route, service } from '../http/routes';
import type { AppContext, Caller } from '../http/context';
import { oneOf, orderByOf, sharedListFields } from '../resources/list';
import { checkPlacesInScope, scopeWhere } from '../resources/scope';
import { refKey } from './gateway';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** A payment's states as the reconciliation view filters them (payments.status). */
export const PAYMENT_STATES = ['pending', 'paid', 'failed', 'expired', 'mismatch', 'cancelled', 'refunded'] as const;
/** The gateways as the view filters them (the part of payments.provider before ':'). */
export const PAYMENT_GATEWAYS = ['myfatoorah', 'tap', 'sandbox', 'cash'] as const;

export const ReconciledPayment = Obj('ReconciledPayment', {
  id: Type.Integer({ description: 'The payment id.' }),
  orderId: Type.Integer(),
  orderNumber: Type.String(),
  provider: Type.String({ description: 'The adapter: myfatoorah:knet, tap:card, sandbox, cash...' }),
  status: Type.String({ description: 'pending, paid, failed, expired, mismatch (paid another amount), cancelled or refunded.' }),
  amount: Type.Number(),
  currency: Type.String(),
  providerRef: Type.String({ description: "The provider's id: MyFatoorah's invoice id, Tap's charge id." }),
  paymentId: Type.Union([Type.String(), Type.Null()], { description: "The provider's payment id (KNET: PaymentID)." }),
  trackId: Type.Union([Type.String(), Type.Null()]),
  result: Type.Union([Type.String(), Type.Null()], { description: "The provider's result text (CAPTURED, NOT CAPTURED...)." }),
  createdAt: Type.String(),
  paidAt: Type.Union([Type.String(), Type.Null()]),
  checkedAt: Type.Union([Type.String(), Type.Null()], { description: 'The last status inquiry.' }),
  updatedAt: Type.String(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  branchId: Type.Integer(),
  branchName: Type.String(),
});
const ReconciledPaymentPage = Obj('ReconciledPaymentPage', {
  data: Type.Array(ReconciledPayment),
  totalCount: Type.Integer(),
  totalAmount: Type.Number({ description: 'The sum of every matching payment (all pages).' }),
});
const ReconciliationQuery = Obj('PaymentReconciliationQuery', {
  ...sharedListFields,
  state: Type.Optional(oneOf(PAYMENT_STATES)),
  provider: Type.Optional(oneOf(PAYMENT_GATEWAYS)),
  brandId: Type.Optional(Id),
  branchId: Type.Optional(Id),
});
const SORTABLE = { createdAt: payments.createdAt, paidAt: payments.paidAt, amount: payments.amount, id: payments.id };
const OrderPaymentsQuery = Obj('OrderPaymentsQuery', { orderId: Id });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Payments in the caller's scope (as Payment History), newest first, with the provider's references. */
export async function reconciliationPage(ctx: AppContext, caller: Caller, query: Static<typeof ReconciliationQuery> & { orderId?: number }) {
  await checkPlacesInScope(ctx.db, caller, query);
  const search = query.Search?.trim();
  const where = and(
    scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId }),
    query.brandId !== undefined ? eq(orders.brandId, query.brandId) : undefined,
    query.branchId !== undefined ? eq(orders.branchId, query.branchId) : undefined,
    query.orderId !== undefined ? eq(payments.orderId, query.orderId) : undefined,
    query.state !== undefined ? eq(payments.status, query.state) : undefined,
    query.provider !== undefined ? sql`split_part(${payments.provider}, ':', 1) = ${query.provider}` : undefined,
    search ? sql`(${orders.orderNumber} = ${search} or split_part(${payments.providerRef}, '~', 1) = ${search}
      or ${payments.providerPaymentId} = ${search} or ${payments.trackId} = ${search})` : undefined,
  ) as SQL | undefined;
  const { offset, limit } = pageOf(query);
  const [rows, [totals]] = await Promise.all([
    ctx.db.select({
      p: payments, orderNumber: orders.orderNumber, currency: currencies.code,
      brandId: orders.brandId, brandName: brands.name, branchId: orders.branchId, branchName: branches.name,
    }).from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(brands, eq(brands.id, orders.brandId))
      .innerJoin(currencies, eq(currencies.id, brands.currencyId))
      .innerJoin(branches, eq(branches.id, orders.branchId))
      .where(where).orderBy(...orderByOf(query.Sorting, SORTABLE, 'createdAt desc', payments.id)).limit(limit).offset(offset),
    ctx.db.select({ n: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${payments.amount}), 0)` })
      .from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(where),
  ]);
  return {
    data: rows.map(({ p, ...r }) => ({
      id: p.id, orderId: p.orderId, orderNumber: r.orderNumber, provider: p.provider, status: p.status, amount: Number(p.amount), currency: r.currency,
      providerRef: refKey(p.providerRef), paymentId: p.providerPaymentId, trackId: p.trackId, result: p.result,
      createdAt: p.createdAt.toISOString(), paidAt: iso(p.paidAt), checkedAt: iso(p.checkedAt), updatedAt: p.updatedAt.toISOString(),
      brandId: r.brandId, brandName: r.brandName, branchId: r.branchId, branchName: r.branchName,
    })),
    totalCount: Number(totals.n),
    totalAmount: Number(totals.amount),
  };
}

/** Issue 21 "Reconciliation": what a brand's accountant checks against the provider's settlement report. */
export function registerPaymentReconciliation(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'PaymentReconciliation', [
    route({
      method: 'GET', name: 'GetPayments', access: 'payments.history',
      summary: "Payments in the caller's scope by state and provider, newest first, with the provider's references (invoice or charge id, payment id, track id), amount and times.",
      query: ReconciliationQuery, result: ReconciledPaymentPage,
      handler: ({ query, caller, ctx }) => reconciliationPage(ctx, caller, query),
    }),
    route({
      method: 'GET', name: 'GetOrderPayments', access: 'orders.view',
      summary: "One order's payments with the provider's references, oldest first: the receipt in the order's drawer.",
      query: OrderPaymentsQuery, result: Type.Array(ReconciledPayment),
      handler: async ({ query, caller, ctx }) => {
        const page = await reconciliationPage(ctx, caller, { orderId: query.orderId, SkipCount: 0, MaxResultCount: 100, Sorting: 'createdAt asc' });
        if (!page.data.length) {
          // No payment, or an order outside the caller's scope: the same 404 either way.
          const [o] = await ctx.db.select({ id: orders.id }).from(orders)
            .where(and(eq(orders.id, query.orderId), scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId })));
          if (!o) throw notFound('Order');
        }
        return page.data;
      },
    }),
  ]);
}


