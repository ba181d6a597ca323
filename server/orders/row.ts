import { Type, type Static, type TSchema } from 'typebox';
import { Column, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { branches, brands, orderItems, orders, paymentSystems, users } from '../db/schema';
import { Obj } from '../http/envelope';
import { Nullable } from '../http/nullable';
import {
  DELIVERY_SYSTEMS, ORDER_STATUSES, type OrderArrival, type OrderPayment, type OrderRefund, type OrderStatus,
} from '../../machines/orderLifecycle';

/**
 * An order as the staff lists and the order mutations answer it: the one declaration of an
 * order's row shape. The server's type is `Static<typeof StaffOrder>`, the select below must name
 * every field of it (the compiler checks), and the console's row type is the generated type of
 * the one GraphQL fragment on `StaffOrder` (src/console/orders/operations.ts).
 */
/** An order as its table holds it (the lifecycle's and loyalty's input). */
export type OrderRecord = typeof orders.$inferSelect;

const ARRIVALS: readonly OrderArrival[] = ['none', 'arrived', 'served', 'noShow'];
const PAYMENTS: readonly OrderPayment[] = ['unpaid', 'paid'];
const REFUNDS: readonly OrderRefund[] = ['none', 'requested', 'approved'];
const oneOf = (values: readonly string[]) => Type.String({ description: values.join(' | ') });

export const StaffOrder = Obj('StaffOrder', {
  id: Type.Integer(),
  orderNumber: Type.String(),
  status: oneOf(ORDER_STATUSES),
  arrival: oneOf(ARRIVALS),
  payment: oneOf(PAYMENTS),
  refund: oneOf(REFUNDS),
  isViewed: Type.Boolean(),
  version: Type.Integer({ description: 'Bumped by every change; pass it back as `version` to refuse acting on a stale view.' }),
  deliverySystem: oneOf(DELIVERY_SYSTEMS),
  customerName: Type.String(),
  customerPhone: Nullable(Type.String()),
  userId: Type.Integer(),
  total: Type.Number(),
  subtotal: Type.Number(),
  tax: Type.Number(),
  deliveryFee: Type.Number(),
  discount: Type.Number(),
  paymentSystemId: Type.Integer(),
  isCash: Type.Boolean({ description: 'Paid at the branch (a cash method): closing or serving it asks whether the cash was collected.' }),
  carDetails: Nullable(Type.String()),
  specialRemarks: Nullable(Type.String()),
  createdAt: Type.String(),
  paidAt: Nullable(Type.String()),
  branchId: Type.Integer(),
  brandId: Type.Integer(),
  /** Names for the staff who see more than one branch (the Branch and Brand columns). */
  branchName: Type.String(),
  brandName: Type.String(),
  itemsCount: Type.Integer({ description: 'Sum of the item quantities.' }),
  itemsText: Type.String({ description: 'The items with their quantities and options, on one line ("2× Latte (Large, Oat milk) · 1× Croissant").' }),
  acceptedAt: Nullable(Type.String()),
  readyAt: Nullable(Type.String()),
  statusReason: Nullable(Type.String({ description: 'Why it was rejected or marked a no-show.' })),
  scheduledFor: Nullable(Type.String({ description: 'The time the customer chose (order for later, ISO); null: as soon as possible.' })),
  firedAt: Nullable(Type.String({ description: 'When an order for later reached the kitchen (its fire time); the wait for acceptance counts from it.' })),
});
export type OrderRow = Static<typeof StaffOrder>;

/** The status counts of a list's filters: one integer per status of the lifecycle. */
export const OrderStatusCounts = Obj(
  'OrderStatusCounts',
  Object.fromEntries(ORDER_STATUSES.map((s) => [s, Type.Integer()])) as Record<OrderStatus, ReturnType<typeof Type.Integer>>,
);
export type StatusCounts = Static<typeof OrderStatusCounts>;
export const noStatusCounts = (): StatusCounts => Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as StatusCounts;

/**
 * Where each field of StaffOrder comes from, for a select over `orders` joined with its customer
 * (users), branch and brand. Numbers and times arrive as the driver gives them (numeric strings,
 * Dates); `orderRowOf` turns them into the schema's types.
 */
export const staffOrderColumns = {
  id: orders.id, orderNumber: orders.orderNumber, status: orders.status, arrival: orders.arrival,
  payment: orders.payment, refund: orders.refund, isViewed: orders.isViewed, version: orders.version,
  deliverySystem: orders.deliverySystem,
  customerName: sql<string>`coalesce(${orders.guestCustomerName}, ${users.fullName}, '')`,
  customerPhone: sql<string | null>`coalesce(${orders.guestPhoneNumber}, ${users.phoneNumber})`,
  userId: orders.userId,
  total: orders.total, subtotal: orders.subtotal, tax: orders.tax, deliveryFee: orders.deliveryFee, discount: orders.discount,
  paymentSystemId: orders.paymentSystemId,
  isCash: sql<boolean>`exists (select 1 from ${paymentSystems} where ${paymentSystems.id} = ${orders.paymentSystemId} and ${paymentSystems.provider} = 'cash')`,
  carDetails: orders.carDetails, specialRemarks: orders.specialRemarks,
  createdAt: orders.createdAt, paidAt: orders.paidAt, branchId: orders.branchId, brandId: orders.brandId,
  branchName: sql<string>`coalesce(${branches.name}, '')`, brandName: sql<string>`coalesce(${brands.name}, '')`,
  acceptedAt: orders.acceptedAt, readyAt: orders.readyAt, statusReason: orders.statusReason, scheduledFor: orders.scheduledFor,
  firedAt: orders.firedAt,
  itemsCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
  itemsText: sql<string>`coalesce((select string_agg(${orderItems.quantity} || '× ' || ${orderItems.name}
    || coalesce(' (' || (select string_agg(o->>'name', ', ') from jsonb_array_elements(${orderItems.options}) o) || ')', ''), ' · ' order by ${orderItems.id})
    from ${orderItems} where ${orderItems.orderId} = ${orders.id}), '')`,
} satisfies Record<keyof OrderRow, AnyColumn | SQL>;

const properties = StaffOrder.properties as Record<string, TSchema & { type?: string | string[] }>;
const NUMERIC = new Set(Object.keys(properties).filter((k) => properties[k].type === 'number' || properties[k].type === 'integer'));
/** Timestamp columns: a driver may hand them over as Date or as text. */
const TIMES = new Set(Object.entries(staffOrderColumns).filter(([, c]) => c instanceof Column && c.dataType === 'date').map(([k]) => k));

/** A selected row in the schema's types: numeric columns as numbers, times as ISO strings. */
export function orderRowOf(selected: Record<keyof OrderRow, unknown>): OrderRow {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(selected)) {
    row[key] = value == null ? value
      : NUMERIC.has(key) ? Number(value)
        : TIMES.has(key) ? new Date(value as Date | string).toISOString()
          : value;
  }
  return row as OrderRow;
}
