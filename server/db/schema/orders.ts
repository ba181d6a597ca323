/** Orders and their items. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, createdAt } from './columns';
import { paymentSystems } from './brandConfig';
import { products } from './menu';
import { branches, brands } from './organisation';
import { users } from './users';

/**
 * The order's own texts the staff search reads (number, guest name, guest phone), as one
 * expression: the trigram index orders_search_trgm_idx is built on it, and a search must use
 * exactly this expression to be answered from that index.
 */
export function orderSearchText(t: { orderNumber: AnyPgColumn; guestCustomerName: AnyPgColumn; guestPhoneNumber: AnyPgColumn }) {
  return sql`(${t.orderNumber} || ' ' || coalesce(${t.guestCustomerName}, '') || ' ' || coalesce(${t.guestPhoneNumber}, ''))`;
}

export const orders = pgTable('orders', {
  id: serial('id').primaryKey(),
  orderNumber: text('order_number').notNull(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  userId: integer('user_id').notNull().references(() => users.id),
  guestCustomerName: text('guest_customer_name'),
  guestPhoneNumber: text('guest_phone_number'),
  guestCustomerEmail: text('guest_customer_email'),
  /** 'pickup' | 'carService' | 'delivery' */
  deliverySystem: text('delivery_system').notNull(),
  /** The order lifecycle machine's regions (machines/orderLifecycle.ts). */
  status: text('status').notNull().default('pending'),
  arrival: text('arrival').notNull().default('none'),
  payment: text('payment').notNull().default('unpaid'),
  refund: text('refund').notNull().default('none'),
  isViewed: boolean('is_viewed').notNull().default(false),
  /** Optimistic concurrency: every status change bumps it. */
  version: integer('version').notNull().default(0),
  paymentSystemId: integer('payment_system_id').notNull().references(() => paymentSystems.id),
  subtotal: money('subtotal'),
  tax: money('tax'),
  deliveryFee: money('delivery_fee'),
  discount: money('discount'),
  discountGroupId: integer('discount_group_id'),
  pointsRedeemed: integer('points_redeemed').notNull().default(0),
  total: money('total'),
  deliveryAddressId: integer('delivery_address_id'),
  deliveryAddress: jsonb('delivery_address'),
  carId: integer('car_id'),
  carDetails: text('car_details'),
  deliveryText: text('delivery_text'),
  specialRemarks: text('special_remarks'),
  promoCode: text('promo_code'),
  /** Secret that lets a guest read this one order (Store/GetOrderDetail ohash). */
  ohash: text('ohash').notNull(),
  idempotencyKey: text('idempotency_key'),
  requestHash: text('request_hash'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** When the branch accepted it and marked it ready (the console's timers, the customer's tracker). */
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  readyAt: timestamp('ready_at', { withTimezone: true }),
  /** When it was expected to be ready as it was placed (domain/readyEstimate.ts): shown on the tracker. */
  readyEstimateAt: timestamp('ready_estimate_at', { withTimezone: true }),
  /** Why it was rejected or marked a no-show (shown to the customer on /track-order). */
  statusReason: text('status_reason'),
  /** The time the customer asked for (null: as soon as possible), and the time the order is for (domain/orderTime.ts orderTimeOf; null on orders placed before issue 25). */
  scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
  orderTime: timestamp('order_time', { withTimezone: true }),
  /** When an order for later reached the kitchen (scheduled → pending, server/orders/fire.ts); the acceptance deadline counts from it. */
  firedAt: timestamp('fired_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('orders_idempotency_uq').on(t.userId, t.idempotencyKey),
  index('orders_branch_created_idx').on(t.branchId, t.createdAt),
  index('orders_brand_created_idx').on(t.brandId, t.createdAt),
  index('orders_user_created_idx').on(t.userId, t.createdAt),
  // Staff lists sorted by a column within their scope (admin: all; brand; branch), id breaking ties,
  // so a page of any sort is a walk of one index, from whichever end is nearer (server/orders/list.ts).
  index('orders_branch_status_id_idx').on(t.branchId, t.status, t.id),
  index('orders_brand_status_id_idx').on(t.brandId, t.status, t.id),
  index('orders_status_id_idx').on(t.status, t.id),
  index('orders_branch_total_idx').on(t.branchId, t.total, t.id),
  index('orders_brand_total_idx').on(t.brandId, t.total, t.id),
  index('orders_total_idx').on(t.total, t.id),
  index('orders_created_id_idx').on(t.createdAt, t.id),
  // Capacity per time slot counts a branch's orders of one mode by their time (server/orders/slots.ts).
  index('orders_branch_mode_time_idx').on(t.branchId, t.deliverySystem, t.orderTime),
  // Search by a part of the order number, guest name or phone (pg_trgm; ilike '%…%').
  index('orders_search_trgm_idx').using('gin', sql`${orderSearchText(t)} gin_trgm_ops`),
  // Staff lists page by id (newest first) within a branch or brand, and count by arrival.
  index('orders_branch_id_idx').on(t.branchId, t.id),
  index('orders_brand_id_idx').on(t.brandId, t.id),
  index('orders_branch_arrival_idx').on(t.branchId, t.arrival),
  // Unpaid Orders: few rows among many, listed and counted per brand.
  index('orders_unpaid_idx').on(t.brandId, t.id).where(sql`${t.payment} = 'unpaid'`),
  // Payment History: the paid orders newest payment first (id breaking ties, as the list sorts),
  // of every brand, of a brand, or of one payment method, so a deep page is a walk of one index.
  index('orders_paid_idx').on(t.brandId, t.paidAt, t.id).where(sql`${t.payment} = 'paid'`),
  index('orders_paid_at_idx').on(t.paidAt, t.id).where(sql`${t.payment} = 'paid'`),
  index('orders_paid_method_idx').on(t.paymentSystemId, t.paidAt, t.id).where(sql`${t.payment} = 'paid'`),
  // The statistics rollup's watermark of changed orders (server/services/statistic/rollup.ts). Only
  // orders that the lifecycle has moved (version > 0) are in it: a new order adds no entry here.
  index('orders_changed_idx').on(t.updatedAt).where(sql`${t.version} > 0`),
  // The acceptance deadline's sweep: the few pending orders, oldest first.
  index('orders_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  // The job runner's scan for orders for later whose fire time has come (server/orders/fire.ts).
  index('orders_scheduled_for_idx').on(t.scheduledFor).where(sql`${t.status} = 'scheduled'`),
  // The quality report's exact percentiles (server/services/statistic/quality.ts): the accepted (and
  // readied) orders of a branch by their time in seconds, so the one histogram bucket that holds the
  // k-th time is read alone. A new order is neither accepted nor ready: intake adds no entry here.
  // Every column the expression reads is in the index, so the bucket is read index-only (an
  // expression alone makes PostgreSQL fetch each order from the table).
  index('orders_accept_seconds_idx').on(t.branchId, sql`(extract(epoch from (${t.acceptedAt} - coalesce(${t.firedAt}, ${t.createdAt}))))`, t.createdAt, t.acceptedAt, t.firedAt)
    .where(sql`${t.acceptedAt} is not null`),
  index('orders_ready_seconds_idx').on(t.branchId, sql`(extract(epoch from (${t.readyAt} - ${t.acceptedAt})))`, t.createdAt, t.acceptedAt, t.readyAt)
    .where(sql`${t.readyAt} is not null and ${t.acceptedAt} is not null`),
  // The same orders of every branch by their time alone: the whole scope's k-th time is a walk of
  // one bucket in order that stops at the rank (the branches and the period filtered on the way).
  index('orders_accept_seconds_all_idx').on(sql`(extract(epoch from (${t.acceptedAt} - coalesce(${t.firedAt}, ${t.createdAt}))))`, t.branchId, t.createdAt, t.acceptedAt, t.firedAt)
    .where(sql`${t.acceptedAt} is not null`),
  index('orders_ready_seconds_all_idx').on(sql`(extract(epoch from (${t.readyAt} - ${t.acceptedAt})))`, t.branchId, t.createdAt, t.acceptedAt, t.readyAt)
    .where(sql`${t.readyAt} is not null and ${t.acceptedAt} is not null`),
]);

export const orderItems = pgTable('order_items', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => products.id),
  name: text('name').notNull(),
  quantity: integer('quantity').notNull(),
  unitPrice: money('unit_price'),
  lineTotal: money('line_total'),
  isRedeem: boolean('is_redeem').notNull().default(false),
  redeemPoints: integer('redeem_points').notNull().default(0),
  /** Snapshot of the chosen options: [{ id, name, price, quantity }] */
  options: jsonb('options').notNull().default(sql`'[]'::jsonb`),
}, (t) => [index('order_items_order_idx').on(t.orderId)]);

/**
 * A time slot of a branch and mode that a placement locked or the branch closed (issue 25). The
 * orders in it are counted from `orders` under the row's lock; `closed` refuses new orders in it.
 */
export const orderSlots = pgTable('order_slots', {
  id: serial('id').primaryKey(),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  /** 'pickup' | 'carService' | 'delivery' (orders.delivery_system) */
  mode: text('mode').notNull(),
  slotStart: timestamp('slot_start', { withTimezone: true }).notNull(),
  closed: boolean('closed').notNull().default(false),
  /** The slot's orders but rejected ones, kept by placements with a limit and rejections (server/orders/slots.ts); null: not kept now, counted at the next placement (migration 0058). */
  taken: integer('taken'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('order_slots_branch_mode_start_uq').on(t.branchId, t.mode, t.slotStart)]);

/**
 * The live feed's events (issue 26, server/events/pgOrderEvents.ts): appended by each publish,
 * read by every process after a NOTIFY that carries only the id, replayed to a subscriber that
 * resumes after its last id. `payload` holds whatever else an event type says.
 */
export const orderEvents = pgTable('order_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  type: text('type').notNull(),
  orderId: integer('order_id').notNull(),
  branchId: integer('branch_id').notNull(),
  brandId: integer('brand_id').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('order_events_at_idx').on(t.at)]);
