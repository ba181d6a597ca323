import { Type } from 'typebox';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders, refundRequests, users } from '../../db/schema';
import { badRequest, conflict, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { filsToDecimal, toFils } from '../../../domain/money';
import { ORDER_EVENT_CAPABILITY } from '../../../domain/permissions';
import { MAX_PAGE_SIZE } from '../../orders/list';
import { orderScope } from '../../orders/scope';
import { transitionOrder } from '../../orders/transition';
import { refundRecordRoutes } from './refunds';


export const RefundRequestDto = Obj('RefundRequest', {
  id: Type.Integer(),
  orderId: Type.Integer(),
  orderNumber: Type.String(),
  branchId: Type.Integer(),
  brandId: Type.Integer(),
  orderTotal: Type.Number(),
  amount: Type.Number(),
  reason: Type.String(),
  status: Type.String({ description: 'requested | approved' }),
  requestedBy: Type.Integer(),
  requestedByName: Type.String(),
  approvedBy: Nullable(Type.Integer()),
  createdAt: Type.String(),
  approvedAt: Nullable(Type.String()),
});

/** Refund requests in the caller's scope (through their order), newest first. */
function selectRefunds(ctx: AppContext, caller: Caller) {
  return {
    query: ctx.db
      .select({
        id: refundRequests.id, orderId: refundRequests.orderId, orderNumber: orders.orderNumber,
        branchId: orders.branchId, brandId: orders.brandId, orderTotal: orders.total,
        amount: refundRequests.amount, reason: refundRequests.reason, status: refundRequests.status,
        requestedBy: refundRequests.requestedBy, requestedByName: users.fullName, approvedBy: refundRequests.approvedBy,
        createdAt: refundRequests.createdAt, approvedAt: refundRequests.approvedAt,
      })
      .from(refundRequests)
      .innerJoin(orders, eq(orders.id, refundRequests.orderId))
      .innerJoin(users, eq(users.id, refundRequests.requestedBy)),
    scope: orderScope(caller),
  };
}

type RefundRow = Awaited<ReturnType<ReturnType<typeof selectRefunds>['query']['execute']>>[number];
const toDto = (r: RefundRow) => ({
  ...r,
  orderTotal: Number(r.orderTotal),
  amount: Number(r.amount),
  createdAt: new Date(r.createdAt).toISOString(),
  approvedAt: r.approvedAt ? new Date(r.approvedAt).toISOString() : null,
});

async function refundById(ctx: AppContext, caller: Caller, id: number) {
  const { query, scope } = selectRefunds(ctx, caller);
  const [row] = await query.where(and(eq(refundRequests.id, id), scope));
  if (!row) throw notFound('RefundRequest');
  return toDto(row);
}

/**
 * Refunds (SPEC.md 7, Staff orders). A refund is asked for a paid order and approved once,
 * both through the order lifecycle machine (refund region), with the refund_requests row written
 * in the same transaction. Decision: any staff role that operates orders may ask; approving needs
 * 'refunds.approve' (not the branch user who asked), so a refund always passes a second pair of eyes.
 */
export function registerRefund(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Refund', [
    route({
      method: 'POST',
      name: 'InitiateRefundRequest',
      access: ORDER_EVENT_CAPABILITY['order.requestRefund'],
      summary: 'Asks for a refund of a paid order: the whole total unless a smaller amount is given.',
      body: Obj('InitiateRefundRequestInput', {
        orderId: Type.Integer({ minimum: 1 }),
        amount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        reason: Type.String({ minLength: 1, maxLength: 500 }),
      }),
      result: RefundRequestDto,
      async handler({ body, caller, ctx }) {
        const reason = body.reason.trim();
        if (!reason) throw badRequest('Your request is not valid!', [{ message: 'reason: Please give the reason of the refund', members: ['reason'] }]);
        let requestId = 0;
        await transitionOrder(ctx, body.orderId, { type: 'order.requestRefund' }, caller, {
          async within(tx, order) {
            const total = toFils(order.total);
            const amount = body.amount === undefined ? total : toFils(body.amount);
            if (amount <= 0 || amount > total) {
              throw badRequest('Your request is not valid!', [{ message: `amount: The refund must be more than 0 and at most the order total (${filsToDecimal(total)})`, members: ['amount'] }]);
            }
            const [row] = await tx.insert(refundRequests)
              .values({ orderId: order.id, amount: filsToDecimal(amount), reason, requestedBy: caller!.id, status: 'requested' })
              .returning({ id: refundRequests.id });
            requestId = row.id;
          },
        });
        return refundById(ctx, caller, requestId);
      },
    }),
    route({
      method: 'POST',
      name: 'ApproveRefundRequest',
      access: ORDER_EVENT_CAPABILITY['order.approveRefund'],
      summary: 'Approves a refund request, by its id or by its order id.',
      body: Obj('ApproveRefundRequestInput', {
        refundRequestId: Type.Optional(Type.Integer({ minimum: 1 })),
        orderId: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      result: RefundRequestDto,
      async handler({ body, caller, ctx }) {
        if (!body.refundRequestId && !body.orderId) {
          throw badRequest('Your request is not valid!', [{ message: 'refundRequestId: Give refundRequestId or orderId', members: ['refundRequestId', 'orderId'] }]);
        }
        const { query, scope } = selectRefunds(ctx, caller);
        const [request] = await query
          .where(and(
            body.refundRequestId ? eq(refundRequests.id, body.refundRequestId) : eq(refundRequests.orderId, body.orderId!),
            scope,
          ))
          .orderBy(desc(refundRequests.id))
          .limit(1);
        if (!request && body.refundRequestId) throw notFound('RefundRequest');
        // By order id with no request yet: the lifecycle answers (404 out of scope, 409 "no refund is requested").
        const orderId = request?.orderId ?? body.orderId!;
        await transitionOrder(ctx, orderId, { type: 'order.approveRefund' }, caller, {
          async within(tx) {
            const approved = request && await tx.update(refundRequests)
              .set({ status: 'approved', approvedBy: caller!.id, approvedAt: new Date() })
              .where(and(eq(refundRequests.id, request.id), eq(refundRequests.status, 'requested')))
              .returning({ id: refundRequests.id });
            if (!approved?.length) throw conflict(`Order #${orderId} has no refund request waiting for approval.`);
          },
        });
        return refundById(ctx, caller, request!.id);
      },
    }),
    route({
      method: 'GET',
      name: 'GetRefundOrderRequest',
      access: 'orders.view',
      summary: 'Refund requests in the caller\'s scope, newest first.',
      query: Obj('GetRefundOrderRequestQuery', {
        SkipCount: Type.Integer({ minimum: 0, default: 0 }),
        MaxResultCount: Type.Integer({ minimum: 1, default: 10 }),
        Status: Type.Optional(Type.Enum(['requested', 'approved'])),
        OrderId: Type.Optional(Type.Integer({ minimum: 1 })),
        BranchId: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      result: Obj('RefundRequestList', { data: Type.Array(RefundRequestDto), totalCount: Type.Integer() }),
      async handler({ query: q, caller, ctx }) {
        const { query, scope } = selectRefunds(ctx, caller);
        const where = and(
          scope,
          q.Status ? eq(refundRequests.status, q.Status) : undefined,
          q.OrderId ? eq(refundRequests.orderId, q.OrderId) : undefined,
          q.BranchId ? eq(orders.branchId, q.BranchId) : undefined,
        );
        const [rows, [{ n }]] = await Promise.all([
          query.where(where).orderBy(desc(refundRequests.id)).limit(Math.min(q.MaxResultCount, MAX_PAGE_SIZE)).offset(q.SkipCount),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(refundRequests).innerJoin(orders, eq(orders.id, refundRequests.orderId)).where(where),
        ]);
        return { data: rows.map(toDto), totalCount: Number(n) };
      },
    }),
    ...refundRecordRoutes(),
  ]);
}
