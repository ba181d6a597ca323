import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import { orders, refunds } from '../../db/schema';
import { conflict, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route } from '../../http/routes';
import { orderScope } from '../../orders/scope';
import { ORDER_EVENT_CAPABILITY } from '../../../domain/permissions';
import { handBackRefund, REFUND_CAUSES, REFUND_STATUSES, refundsOfOrders, retryRefund, type RefundRecord } from '../../payments/refunds';

/** A refund as staff see it on the order and in payment history (server/payments/refunds.ts). */
export const RefundDto = Obj('Refund', {
  id: Type.Integer(),
  orderId: Type.Integer(),
  amount: Type.Number(),
  currency: Type.String(),
  provider: Type.String(),
  cause: Type.String({ description: REFUND_CAUSES.join(' | ') }),
  status: Type.String({ description: `${REFUND_STATUSES.join(' | ')} (owed: a cash refund the branch hands back)` }),
  reason: Type.String(),
  providerRefundRef: Nullable(Type.String()),
  attempts: Type.Integer({ description: 'Provider calls of the current attempt.' }),
  retries: Type.Integer({ description: 'Times staff retried it after it failed.' }),
  lastMessage: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  refundedAt: Nullable(Type.String()),
  handedBackBy: Nullable(Type.Integer({ description: 'Who marked a cash refund as handed back at the branch (refundedAt: when).' })),
});

export const refundDto = (r: RefundRecord) => ({
  id: r.id, orderId: r.orderId, amount: Number(r.amount), currency: r.currency, provider: r.provider, cause: r.cause, status: r.status,
  reason: r.reason, providerRefundRef: r.providerRefundRef, attempts: r.attempts, retries: r.retries, lastMessage: r.lastMessage,
  createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(), refundedAt: r.refundedAt?.toISOString() ?? null,
  handedBackBy: r.handedBackBy ?? null,
});

/** The refund calls of the Refund service (registerRefund): an order's refunds, and retrying a failed one. */
export const refundRecordRoutes = () => [
  route({
    method: 'GET',
    name: 'GetOrderRefunds',
    access: 'orders.view',
    summary: 'The money given back for an order (automatic refunds and approved requests), oldest first, with each refund\'s state at the provider.',
    query: Obj('GetOrderRefundsQuery', { OrderId: Type.Integer({ minimum: 1 }) }),
    result: Type.Array(RefundDto),
    async handler({ query, caller, ctx }) {
      const [order] = await ctx.db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, query.OrderId), orderScope(caller)));
      if (!order) throw notFound('Order');
      return (await refundsOfOrders(ctx.db, [order.id])).map(refundDto);
    },
  }),
  route({
    method: 'POST',
    name: 'RetryRefund',
    // Sending money back again is a money decision, as approving a refund is.
    access: ORDER_EVENT_CAPABILITY['order.approveRefund'],
    summary: 'Asks the provider again for a failed refund, under a new idempotency key (the failed attempt moved no money).',
    body: Obj('RetryRefundInput', { refundId: Type.Integer({ minimum: 1 }) }),
    result: RefundDto,
    async handler({ body, caller, ctx }) {
      const [found] = await ctx.db.select({ status: refunds.status }).from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId))
        .where(and(eq(refunds.id, body.refundId), orderScope(caller)));
      if (!found) throw notFound('Refund');
      const retried = await retryRefund(ctx, body.refundId, caller);
      if (!retried) throw conflict(`Refund #${body.refundId} cannot be retried: it is ${found.status === 'failed' ? 'being retried already' : found.status}.`);
      return refundDto(retried);
    },
  }),
  route({
    method: 'POST',
    name: 'MarkRefundHandedBack',
    // Money leaving the till is a money decision, as retrying or approving a refund is.
    access: ORDER_EVENT_CAPABILITY['order.approveRefund'],
    summary: 'Records that an owed cash refund was handed back to the customer at the branch (owed → refunded, with who and when). Only an owed refund moves: a second call is a 409.',
    body: Obj('MarkRefundHandedBackInput', { refundId: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
    result: RefundDto,
    async handler({ body, caller, ctx }) {
      const [found] = await ctx.db.select({ status: refunds.status }).from(refunds).innerJoin(orders, eq(orders.id, refunds.orderId))
        .where(and(eq(refunds.id, body.refundId), orderScope(caller)));
      if (!found) throw notFound('Refund');
      const handed = found.status === 'owed' ? await handBackRefund(ctx, body.refundId, caller) : null;
      if (!handed) {
        throw conflict(`Refund #${body.refundId} is not owed at the branch: it is ${found.status === 'owed' ? 'handed back already' : found.status === 'refunded' ? 'given back already' : found.status}.`);
      }
      return refundDto(handed);
    },
  }),
];
