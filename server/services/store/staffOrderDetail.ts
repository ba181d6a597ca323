import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { orderScope } from '../../orders/scope';
import { CustomerOrderDetail, orderDetail } from './customerOrders';

/**
 * One order with its items for the console's order drawer. SPEC.md 7 lists no staff call for an
 * order's items (the legacy lists carried them); decision (docs/decisions.md): a read-only call
 * beside the staff lists, scoped like them, answering the same shape as the shop's GetOrderDetail.
 * Out of scope or unknown: 404.
 */
export function registerStaffOrderDetail(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Store', [
    route({
      method: 'GET',
      name: 'GetOrderDetailAsBranchUser',
      access: 'orders.view',
      summary: "One order in the caller's scope, with its items and options, for the staff order details.",
      query: Obj('GetOrderDetailAsBranchUserQuery', { orderId: Type.Integer({ minimum: 1 }) }),
      result: CustomerOrderDetail,
      async handler({ query, caller, ctx }) {
        const [row] = await ctx.db.select({ id: orders.id }).from(orders)
          .where(and(eq(orders.id, query.orderId), orderScope(caller)));
        if (!row) throw notFound('Order');
        // Staff in scope read the order in full; the detail mapping is the shop's.
        return orderDetail(ctx.db, row.id, 'full');
      },
    }),
  ]);
}
