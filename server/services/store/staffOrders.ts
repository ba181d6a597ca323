import { Type, type Static } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders, payments } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { allowEmptyBody } from '../../http/emptyBody';
import type { AppContext, Caller } from '../../http/context';
import { canSendOrderEvent, ORDER_EVENT_CAPABILITY, type StaffOrderEventType } from '../../../domain/permissions';
import { countOrders, listOrders, MAX_PAGE_SIZE, orderWhere, type OrderFilter, type OrderRow } from '../../orders/list';
import { OrderStatusCounts, StaffOrder } from '../../orders/row';
import { transitionOrder, type OrderRecord, type TransitionOptions } from '../../orders/transition';
import { eventWithReason, ReasonField } from '../../orders/reason';
import {
  DELIVERY_SYSTEMS, OPEN_STATUSES, ORDER_STATUS_TYPES, ORDER_STATUSES, type DeliverySystem, type OrderLifecycleEvent, type OrderStatus,
} from '../../../machines/orderLifecycle';

const STATUS_NAMES = ORDER_STATUS_TYPES.map((s) => s.name);

export { StaffOrder };

const StaffOrderList = Obj('StaffOrderList', {
  data: Type.Array(StaffOrder),
  totalCount: Type.Integer(),
  counts: Type.Optional(OrderStatusCounts),
});

const ListQuery = Obj('StaffOrderListQuery', {
  SkipCount: Type.Integer({ minimum: 0, default: 0 }),
  MaxResultCount: Type.Integer({ minimum: 1, default: 10, description: `Capped at ${MAX_PAGE_SIZE}.` }),
  Sorting: Type.Optional(Type.String({ maxLength: 40, description: 'id | createdAt | total | status, then asc | desc. Default: id desc.' })),
  Status: Type.Optional(Type.Enum(ORDER_STATUSES)),
  Payment: Type.Optional(Type.Enum(['paid', 'unpaid'])),
  DeliverySystem: Type.Optional(Type.Enum(DELIVERY_SYSTEMS)),
  Search: Type.Optional(Type.String({ maxLength: 100, description: 'Order number or id, customer name or phone.' })),
  BranchId: Type.Optional(Type.Integer({ minimum: 1 })),
  BrandId: Type.Optional(Type.Integer({ minimum: 1 })),
  CustomerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only the orders this customer placed (the Orders tab of /customers/{id}).' })),
  CreatedAfterId: Type.Optional(Type.Integer({ minimum: 0, description: 'Only orders with a greater id (catch-up after a reconnect).' })),
  FromDate: Type.Optional(Type.String({ format: 'date-time' })),
  ToDate: Type.Optional(Type.String({ format: 'date-time' })),
  IncludeCounts: Type.Boolean({ default: false, description: `Add the ${ORDER_STATUSES.join('/')} counts of the same filters.` }),
});
type ListQuery = Static<typeof ListQuery>;

const CountQuery = Obj('StaffOrderCountQuery', {
  BranchId: Type.Optional(Type.Integer({ minimum: 1 })),
  DeliverySystem: Type.Optional(Type.Enum(['pickup', 'carService'])),
  FromDate: Type.Optional(Type.String({ format: 'date-time' })),
  ToDate: Type.Optional(Type.String({ format: 'date-time' })),
});

const OrderIdBody = Obj('OrderIdInput', {
  orderId: Type.Optional(Type.Integer({ minimum: 1, description: 'Or orderId in the query.' })),
  version: Type.Optional(Type.Integer({ minimum: 0, description: 'The version last seen; a newer one is a 409.' })),
});
const OrderIdQuery = Obj('OrderIdQuery', { orderId: Type.Optional(Type.Integer({ minimum: 1 })) });
const NoShowBody = Obj('CustomerNoShowInput', { ...OrderIdBody.properties, reason: ReasonField });
/** Closing or serving a cash order: true when the branch took the cash, so the order is paid in the same step (issue 21). */
const CashCollectedField = Type.Optional(Type.Boolean({
  description: 'Closing or serving: the cash was collected at the branch. The order is marked paid in the same step as the close (payment history, revenue); false or absent leaves it unpaid (owed, in the unpaid list).',
}));
const ServeBody = Obj('CustomerServedInput', { ...OrderIdBody.properties, cashCollected: CashCollectedField });

const OrderStatusType = Obj('OrderStatusType', {
  id: Type.Integer(), name: Type.String(), displayName: Type.String(),
});

function filterOf(q: ListQuery, fixed: Partial<OrderFilter> = {}): OrderFilter {
  return {
    ...fixed,
    status: q.Status as OrderStatus | undefined,
    payment: fixed.payment ?? (q.Payment as OrderFilter['payment']),
    deliverySystem: fixed.deliverySystem ?? (q.DeliverySystem as DeliverySystem | undefined),
    search: q.Search,
    branchId: q.BranchId,
    brandId: q.BrandId,
    userId: q.CustomerId,
    createdAfterId: q.CreatedAfterId,
    fromDate: q.FromDate ? new Date(q.FromDate) : undefined,
    toDate: q.ToDate ? new Date(q.ToDate) : undefined,
  };
}

/** One list route: the same query and answer shape, a fixed filter, and the capability that may read it. */
const list = (name: string, access: 'orders.view' | 'orders.unpaid' | 'orders.branchLive', summary: string, fixed: Partial<OrderFilter> = {}) =>
  route({
    method: 'GET', name, access, summary, query: ListQuery, result: StaffOrderList,
    handler: ({ query, caller, ctx }) =>
      listOrders(ctx.db, caller, filterOf(query, fixed), { skip: query.SkipCount, take: query.MaxResultCount, sorting: query.Sorting }, { includeCounts: query.IncludeCounts }),
  });

const count = (name: string, summary: string, fixed: Partial<OrderFilter>) =>
  route({
    method: 'GET', name, access: 'orders.view', summary, query: CountQuery, result: Type.Integer(),
    handler: ({ query, caller, ctx }) =>
      countOrders(ctx.db, orderWhere(caller, {
        ...fixed,
        branchId: query.BranchId,
        deliverySystem: fixed.deliverySystem ?? (query.DeliverySystem as DeliverySystem | undefined),
        fromDate: query.FromDate ? new Date(query.FromDate) : undefined,
        toDate: query.ToDate ? new Date(query.ToDate) : undefined,
      })),
  });

/** Runs one lifecycle event on an order for a route, answering the updated order row. */
export async function applyOrderEvent(ctx: AppContext, caller: Caller, orderId: number, event: OrderLifecycleEvent, version?: number) {
  const { order } = await transitionOrder(ctx, orderId, event, caller, { expectedVersion: version, within: cashTaken });
  return orderRowOf(ctx, order);
}

/**
 * Staff marked a cash order paid (UpdateOrderToPaidStatus, or a close or serve with the cash
 * collected): its cash payment is taken too, in the same transaction, so the payments agree with the order.
 */
const cashTaken: NonNullable<TransitionOptions['within']> = async (tx, updated, before) => {
  if (updated.payment !== 'paid' || before.payment === 'paid') return;
  await tx.update(payments).set({ status: 'paid', paidAt: updated.paidAt ?? new Date() })
    .where(and(eq(payments.orderId, updated.id), eq(payments.provider, 'cash'), eq(payments.status, 'pending')));
};

async function orderRowOf(ctx: AppContext, order: OrderRecord): Promise<OrderRow> {
  const { data } = await listOrders(ctx.db, null, { id: order.id }, { skip: 0, take: 1 });
  return data[0];
}

const CURRENT = OPEN_STATUSES;

export function registerStaffOrders(app: FastifyInstance, ctx: AppContext) {
  allowEmptyBody(app, ['UpdateOrderToPaidStatus', 'UpdateOrderAsRead', 'CustomerServed', 'CustomerNoShow'].map((m) => `/api/services/app/Store/${m}`));
  service(app, ctx, 'Store', [
    list('GetUserOrdersAsBranchUser', 'orders.view', 'All orders in the caller\'s scope, newest first.'),
    list('GetUnPaidUserOrdersAsBranchUser', 'orders.unpaid', 'Unpaid orders in scope.', { payment: 'unpaid' }),
    list('GetCurrentUserOrdersAsBranchUser', 'orders.view', 'Current (pending, accepted and ready) orders in scope.', { statuses: CURRENT }),
    list('GetCurrentDriveThruUserOrdersAsBranchUser', 'orders.branchLive', 'Current car-service (drive-thru) orders of the branch.', { statuses: CURRENT, deliverySystem: 'carService' }),
    list('GetCurrentPickUpUserOrdersAsBranchUser', 'orders.branchLive', 'Current pickup orders of the branch.', { statuses: CURRENT, deliverySystem: 'pickup' }),
    list('GetPendingdStatusOrdersHistory', 'orders.view', 'Pending orders in scope.', { statuses: ['pending'] }),
    list('GetAcceptedStatusOrdersHistory', 'orders.view', 'Accepted orders in scope.', { statuses: ['accepted'] }),
    list('GetRejectedStatusOrdersHistory', 'orders.view', 'Rejected orders in scope.', { statuses: ['rejected'] }),
    list('GetCloseddStatusOrdersHistory', 'orders.view', 'Closed orders in scope.', { statuses: ['closed'] }),
    route({
      method: 'GET',
      name: 'GetOrderStatusTypes',
      access: 'public',
      summary: 'The order statuses, from the order lifecycle machine.',
      result: Type.Array(OrderStatusType),
      handler: async () => ORDER_STATUS_TYPES.map(({ id, name, displayName }) => ({ id, name, displayName })),
    }),
    count('GetOrdersCountByArrivedStatus', 'Car-service orders whose customer has arrived and that are not finished yet.', { arrival: 'arrived', statuses: CURRENT, deliverySystem: 'carService' }),
    count('GetOrdersCountByServedStatus', 'Car-service orders served.', { arrival: 'served', deliverySystem: 'carService' }),
    count('GetOrdersCountByNoShowStatus', 'Pickup and car-service orders whose customer never came (DeliverySystem narrows).', { arrival: 'noShow' }),
    route({
      method: 'PUT',
      name: 'UpdateOrderStatus',
      // The status events share one capability in the table; each is checked again once the status is known.
      access: ORDER_EVENT_CAPABILITY['order.accept'],
      summary: 'Moves an order to a status of GetOrderStatusTypes (name, or id), if the order lifecycle allows it; 409 otherwise. Rejecting needs a reason.',
      body: Obj('UpdateOrderStatusInput', {
        orderId: Type.Integer({ minimum: 1 }),
        status: Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Integer()]),
        version: Type.Optional(Type.Integer({ minimum: 0 })),
        reason: ReasonField,
        cashCollected: CashCollectedField,
      }),
      result: StaffOrder,
      async handler({ body, caller, ctx }) {
        const wanted = String(body.status).trim().toLowerCase();
        const type = ORDER_STATUS_TYPES.find((s) => s.name === wanted || String(s.id) === wanted);
        if (!type) throw badRequest(`Unknown order status "${body.status}". Use one of: ${STATUS_NAMES.join(', ')}.`);
        if (type.event && !canSendOrderEvent(caller!.role, type.event)) throw forbidden();
        if (!type.event) {
          // Nothing leads back to the initial status; still 404 before 409 for an order out of scope.
          await mustSee(ctx, caller, body.orderId);
          throw conflict(`Order #${body.orderId} cannot be set back to ${type.name}.`);
        }
        return applyOrderEvent(ctx, caller, body.orderId, withCashCollected(eventWithReason(type.event, body.reason), body.cashCollected), body.version);
      },
    }),
    mutation('PUT', 'UpdateOrderToPaidStatus', 'order.markPaid', 'Marks an order paid (e.g. cash at the branch). Repeating it is a no-op.'),
    mutation('PUT', 'UpdateOrderAsRead', 'order.markRead', 'Flags an order as read once viewed. Repeating it is a no-op.'),
    mutation('POST', 'CustomerServed', 'order.serve', 'A car-service customer was served; the order is closed (and paid, with cashCollected).', ServeBody),
    mutation('POST', 'CustomerNoShow', 'order.noShow', 'A pickup or car-service customer never came; the order is closed. Needs a reason.', NoShowBody),
    route({
      method: 'POST',
      name: 'CustomerArrived',
      access: 'user',
      summary: 'A car-service customer has arrived. Sent by the customer who placed the order (a guest also gives the order ohash), or by staff.',
      body: Obj('CustomerArrivedInput', { orderId: Type.Integer({ minimum: 1 }), ohash: Type.Optional(Type.String({ maxLength: 200 })) }),
      result: Obj('CustomerArrivedResult', { id: Type.Integer(), arrival: Type.String(), status: Type.String() }),
      async handler({ body, caller, ctx }) {
        if (caller!.role === 'CUSTOMER') {
          const [own] = await ctx.db.select({ id: orders.id, ohash: orders.ohash }).from(orders)
            .where(and(eq(orders.id, body.orderId), eq(orders.userId, caller!.id)));
          // The guest account is shared, so a guest proves the order with its secret.
          if (!own || (caller!.isGuest && own.ohash !== body.ohash)) throw notFound('Order');
          const { order } = await transitionOrder(ctx, body.orderId, { type: 'order.arrive' }, null);
          return { id: order.id, arrival: order.arrival, status: order.status };
        }
        if (!canSendOrderEvent(caller!.role, 'order.arrive')) throw forbidden();
        const { order } = await transitionOrder(ctx, body.orderId, { type: 'order.arrive' }, caller);
        return { id: order.id, arrival: order.arrival, status: order.status };
      },
    }),
  ]);
}

/**
 * A mutation taking { orderId, version? } in the body (or orderId in the query, as the legacy
 * clients send it for UpdateOrderAsRead), answering the updated order.
 */
function mutation(
  method: 'PUT' | 'POST', name: string, event: StaffOrderEventType, summary: string,
  body: typeof OrderIdBody | typeof NoShowBody | typeof ServeBody = OrderIdBody,
) {
  return route({
    method, name, access: ORDER_EVENT_CAPABILITY[event], summary,
    query: OrderIdQuery,
    body,
    result: StaffOrder,
    async handler({ query, body, caller, ctx }) {
      const orderId = body.orderId ?? query.orderId;
      if (!orderId) throw badRequest('Your request is not valid!', [{ message: 'orderId: is required', members: ['orderId'] }]);
      const reason = 'reason' in body ? (body.reason as string | undefined) : undefined;
      const cashCollected = 'cashCollected' in body ? (body.cashCollected as boolean | undefined) : undefined;
      return applyOrderEvent(ctx, caller, orderId, withCashCollected(eventWithReason(event, reason), cashCollected), body.version);
    },
  });
}

/**
 * A close or serve with the cash taken at the branch: the lifecycle marks the order paid in the same
 * step (machines/orderLifecycle.ts `collectsCash`). Any other event with it is a 400, nothing written.
 */
function withCashCollected(event: OrderLifecycleEvent, cashCollected: boolean | undefined): OrderLifecycleEvent {
  if (!cashCollected) return event;
  if (event.type !== 'order.close' && event.type !== 'order.serve') {
    throw badRequest('Cash is collected only when an order is closed or served.', [{ message: 'cashCollected: only with closing or serving an order', members: ['cashCollected'] }]);
  }
  return { ...event, cashCollected: true };
}

async function mustSee(ctx: AppContext, caller: Caller, orderId: number) {
  const [row] = await ctx.db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, orderId), orderWhere(caller, {})));
  if (!row) throw notFound('Order');
}
