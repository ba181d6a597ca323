import { Type, type Static } from 'typebox';
import { and, eq, gte, ilike, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { branches, brands, currencies, orders, paymentSystems, payments, refunds, smsOutbox, users } from '../../db/schema';
import { filsToDecimal, toFils } from '../../../domain/money';
import { Obj } from '../../http/envelope';
import { pageOf } from '../../http/paging';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { containsText, orderByOf, oneOf, sharedListFields } from '../../resources/list';
import { checkPlacesInScope, scopeWhere } from '../../resources/scope';
import { periodFields, periodOf } from '../../http/period';
import { paymentTotals, type PaymentColumns } from '../statistic/paymentTotals';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** What became of a received payment: kept, a refund asked for, or given back. */
export const PAYMENT_REFUND_STATES = ['none', 'requested', 'approved'] as const;

/**
 * One row of Payment History: an order whose money was received (orders.payment = 'paid'), by any
 * method. Card attempts that were never paid are not payments (docs/decisions.md "Payment History").
 */
export const CustomerPayment = Obj('CustomerPayment', {
  id: Type.Integer({ description: 'The order id.' }),
  orderNumber: Type.String(),
  paidAt: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  paymentSystemId: Type.Integer(),
  paymentSystemName: Type.String(),
  deliverySystem: Type.String(),
  refund: Type.String({ description: 'none, requested or approved (given back).' }),
  refundId: Type.Union([Type.Integer(), Type.Null()], { description: 'The latest refund of the payment (server/payments/refunds.ts); null: none.' }),
  refundStatus: Type.Union([Type.String(), Type.Null()], { description: 'That refund\'s state: pending, refunded, failed, or owed (cash, at the branch).' }),
  refundAmount: Type.Number({ description: 'The money given back or on its way (every refund of the payment).' }),
  customerId: Type.Integer(),
  customerName: Type.String(),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  isGuest: Type.Boolean(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  branchId: Type.Integer(),
  branchName: Type.String(),
});
const CustomerPaymentPage = Obj('CustomerPaymentPage', {
  data: Type.Array(CustomerPayment),
  totalCount: Type.Integer(),
  totalAmount: Type.Number({ description: 'The sum of every matching payment (all pages), refunds not taken off.' }),
  totalRefunded: Type.Number({ description: 'What completed refunds of those payments gave back (all pages): totalAmount less this is what was kept.' }),
});

const HistoryQuery = Obj('CustomerPaymentsHistoryQuery', {
  ...sharedListFields,
  brandId: Type.Optional(Id),
  branchId: Type.Optional(Id),
  paymentSystemId: Type.Optional(Id),
  refund: Type.Optional(oneOf(PAYMENT_REFUND_STATES)),
  ...periodFields('Paid'),
});

/**
 * A provider account's figures as Balance Enquiry shows them (SPEC.md 2.2: SMS, a payment provider
 * and e-mail, "with an average of N/A"). The embedded adapters have no prepaid balance to ask for:
 * they report what they did themselves (docs/decisions.md "Balance Enquiry").
 */
export const ProviderBalance = Obj('ProviderBalance', {
  provider: Type.String({ description: 'SMS, Payment or E-mail.' }),
  adapter: Type.String({ description: 'The adapter in use (outbox, sandbox, none…).' }),
  balance: Type.Union([Type.Number(), Type.Null()], { description: 'The account balance; null when the provider has none to report.' }),
  unit: Type.String({ description: 'What balance and the period figures count.' }),
  total: Type.Number({ description: 'All time.' }),
  last30Days: Type.Number(),
  average: Type.Union([Type.Number(), Type.Null()], { description: 'The provider\'s average spend; null (N/A) for the embedded adapters.' }),
  note: Type.String(),
});

type Balance = Static<typeof ProviderBalance>;
const DAY_MS = 24 * 3600 * 1000;

const customerName = sql<string>`coalesce(nullif(${orders.guestCustomerName}, ''), ${users.fullName}, '')`;
const customerPhone = sql<string | null>`coalesce(${orders.guestPhoneNumber}, ${users.phoneNumber})`;

/** A page row's refunds (a few rows per order at most, read through refunds_order_cause_uq). */
const refundOfRow = {
  refundId: sql<number | null>`(select r.id from refunds r where r.order_id = ${orders.id} order by r.id desc limit 1)`,
  refundStatus: sql<string | null>`(select r.status from refunds r where r.order_id = ${orders.id} order by r.id desc limit 1)`,
  refundAmount: sql<string>`(select coalesce(sum(r.amount), 0) from refunds r where r.order_id = ${orders.id})`,
};

const SORTABLE = { paidAt: orders.paidAt, amount: orders.total, id: orders.id, orderNumber: orders.id };

export async function paymentsHistory(db: Db, caller: Caller, query: Static<typeof HistoryQuery>) {
  const period = periodOf(query);
  await checkPlacesInScope(db, caller, query);
  const search = query.Search?.trim();
  const digits = search?.replace(/\D/g, '') ?? '';
  // The same filters on the orders or on the payments rollup (paymentTotals).
  const filters = (c: PaymentColumns) => and(
    scopeWhere(caller, { brandId: c.brandId, branchId: c.branchId }),
    query.brandId !== undefined ? eq(c.brandId, query.brandId) : undefined,
    query.branchId !== undefined ? eq(c.branchId, query.branchId) : undefined,
    query.paymentSystemId !== undefined ? eq(c.paymentSystemId, query.paymentSystemId) : undefined,
    query.refund !== undefined ? eq(c.refund, query.refund) : undefined,
  );
  const where = and(
    eq(orders.payment, 'paid'),
    filters(orders),
    period.from ? gte(orders.paidAt, period.from) : undefined,
    period.to ? lt(orders.paidAt, period.to) : undefined,
    search ? or(
      containsText(customerName, search),
      eq(orders.orderNumber, search),
      digits.length >= 3 ? ilike(customerPhone, `%${digits}%`) : undefined,
    ) : undefined,
  ) as SQL;
  const { offset, limit } = pageOf(query);
  const orderBy = orderByOf(query.Sorting, SORTABLE, 'paidAt desc', orders.id);
  const [rows, [totals], [refunded]] = await Promise.all([
    db.select({
      id: orders.id, orderNumber: orders.orderNumber, paidAt: orders.paidAt, amount: orders.total, currency: currencies.code,
      paymentSystemId: orders.paymentSystemId, paymentSystemName: paymentSystems.name, deliverySystem: orders.deliverySystem,
      refund: orders.refund, ...refundOfRow, customerId: orders.userId, customerName, phoneNumber: customerPhone, isGuest: users.isGuest,
      brandId: orders.brandId, brandName: brands.name, branchId: orders.branchId, branchName: branches.name,
    })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(brands, eq(brands.id, orders.brandId))
      .innerJoin(currencies, eq(currencies.id, brands.currencyId))
      .innerJoin(branches, eq(branches.id, orders.branchId))
      .innerJoin(paymentSystems, eq(paymentSystems.id, orders.paymentSystemId))
      .where(where).orderBy(...orderBy).limit(limit).offset(offset),
    // A search reads the matching payments themselves (the customer's name and phone); without one,
    // the totals come from the payments rollup, not from every matching payment.
    search
      ? db.select({ n: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${orders.total}), 0)` })
        .from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where)
      : paymentTotals(db, filters, period).then((t) => [t]),
    // Refunds are few beside payments: read from them, each joined to its order by key.
    db.select({ amount: sql<string>`coalesce(sum(${refunds.amount}), 0)` })
      .from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId)).innerJoin(users, eq(users.id, orders.userId))
      .where(and(eq(refunds.status, 'refunded'), where)),
  ]);
  return {
    data: rows.map((r) => ({
      ...r, paidAt: (r.paidAt ?? new Date(0)).toISOString(), amount: Number(r.amount), phoneNumber: r.phoneNumber ?? null,
      refundId: r.refundId ?? null, refundStatus: r.refundStatus ?? null, refundAmount: Number(r.refundAmount),
    })),
    totalCount: Number(totals.n),
    totalAmount: Number(totals.amount),
    totalRefunded: Number(refunded.amount),
  };
}

/** The SMS account: what the embedded outbox sent (every code is one message). */
async function smsBalance(ctx: AppContext): Promise<Balance> {
  const since = new Date(Date.now() - 30 * DAY_MS);
  const [row] = await ctx.db.select({
    total: sql<number>`count(*)::int`,
    recent: sql<number>`(count(*) filter (where ${smsOutbox.createdAt} >= ${since}))::int`,
  }).from(smsOutbox);
  return {
    provider: 'SMS', adapter: ctx.sms.embeddedOutbox ? 'outbox' : 'provider', balance: null, unit: 'messages sent',
    total: Number(row.total), last30Days: Number(row.recent), average: null,
    note: ctx.sms.embeddedOutbox
      ? 'The embedded outbox keeps messages instead of sending them, so there is no prepaid balance.'
      : 'The SMS provider does not report a balance to this product.',
  };
}

/**
 * The payment providers' takings in the caller's scope: the money captured online (every provider
 * but cash: the sandbox, MyFatoorah, Tap), less the refunds the providers completed. A refund on its
 * way (pending, failed) is still in the takings until the provider gives it back. The last 30 days:
 * captured (payments.paid_at) less given back (refunds.refunded_at) in them.
 */
async function paymentBalance(ctx: AppContext, caller: Caller): Promise<Balance> {
  const since = new Date(Date.now() - 30 * DAY_MS);
  const inScope = scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId });
  const [[taken], [given]] = await Promise.all([
    ctx.db.select({
      total: sql<string>`coalesce(sum(${payments.amount}), 0)`,
      recent: sql<string>`coalesce(sum(${payments.amount}) filter (where coalesce(${payments.paidAt}, ${payments.updatedAt}) >= ${since}), 0)`,
    }).from(payments).innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.status, 'paid'), ne(payments.provider, 'cash'), inScope)),
    ctx.db.select({
      total: sql<string>`coalesce(sum(${refunds.amount}), 0)`,
      recent: sql<string>`coalesce(sum(${refunds.amount}) filter (where ${refunds.refundedAt} >= ${since}), 0)`,
    }).from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(refunds.status, 'refunded'), ne(refunds.provider, 'cash'), inScope)),
  ]);
  const net = (a: string, b: string) => Number(filsToDecimal(toFils(a) - toFils(b)));
  const total = net(taken.total, given.total);
  const adapters = ['sandbox', ...(ctx.config.payments?.myfatoorah ? ['myfatoorah'] : []), ...(ctx.config.payments?.tap ? ['tap'] : [])];
  return {
    provider: 'Payment', adapter: adapters.join(', '), balance: total, unit: 'KD taken online, refunds given back taken off',
    total, last30Days: net(taken.recent, given.recent), average: null,
    note: caller?.role === 'ADMIN' ? 'Every brand.' : 'The brands of your company.',
  };
}

/**
 * The e-mail account. This release sends no e-mail (codes go by SMS, notifications to the shop's
 * inbox and web push), so the figures are what is true: nothing sent.
 */
function emailBalance(): Balance {
  return {
    provider: 'E-mail', adapter: 'none', balance: null, unit: 'e-mails sent', total: 0, last30Days: 0, average: null,
    note: 'No e-mail provider is configured: this release sends no e-mail.',
  };
}

/** SPEC.md 7 "Notifications and payments": Payment History and Balance Enquiry. */
export function registerPaymentDashboard(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'PaymentDashboard', [
    route({
      method: 'GET', name: 'GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser', access: 'payments.history',
      summary: "Customers' payments received in the caller's scope, newest first: filter by dates, brand, branch, method and refund; search by customer, phone or order number.",
      query: HistoryQuery, result: CustomerPaymentPage,
      handler: ({ query, caller, ctx }) => paymentsHistory(ctx.db, caller, query),
    }),
    route({
      method: 'POST', name: 'BalanceEnquiryAsync', access: 'balance.enquiry',
      summary: 'The SMS and payment provider accounts: balance, messages sent or takings, all time and the last 30 days.',
      result: Type.Array(ProviderBalance),
      handler: async ({ caller, ctx }) => [await smsBalance(ctx), await paymentBalance(ctx, caller)],
    }),
    route({
      method: 'POST', name: 'BalanceEnquiryAsyncSendGrid', access: 'balance.enquiry',
      summary: 'The e-mail provider account.',
      result: Type.Array(ProviderBalance),
      handler: async () => [emailBalance()],
    }),
  ]);
}
