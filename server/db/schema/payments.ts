/** Payments, the payment inbox, refund requests and refunds. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, createdAt } from './columns';
import { orders } from './orders';
import { users } from './users';

export const payments = pgTable('payments', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => orders.id),
  provider: text('provider').notNull(),
  amount: money('amount'),
  /** 'pending' | 'paid' | 'cancelled' | 'refunded'; online gateways also 'failed' | 'expired' | 'mismatch' (paid another amount) (server/payments/settle.ts) */
  status: text('status').notNull().default('pending'),
  /** The provider's id of the payment; MyFatoorah and Tap: `<invoice or charge id>~<page URL>` (server/payments/gateway.ts). */
  providerRef: text('provider_ref').notNull(),
  /** What the provider's status inquiry said (issue 21): its payment id and track id (KNET), result text and time paid. */
  providerPaymentId: text('provider_payment_id'),
  trackId: text('track_id'),
  result: text('result'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** The last inquiry; and when the reconciliation job may ask again (a job's claim moves it a lease ahead). */
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('payments_ref_uq').on(t.providerRef), index('payments_order_idx').on(t.orderId),
  index('payments_provider_key_idx').on(t.provider, sql`split_part(${t.providerRef}, '~', 1)`),
  index('payments_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
]);

/**
 * Every callback of a payment gateway (issue 21, server/payments/settle.ts), stored before it is
 * acted on: once per provider and event key, so a retried callback finds its row and changes
 * nothing; a row left unprocessed by a crash is taken up by the reconciliation job.
 */
export const paymentInbox = pgTable('payment_inbox', {
  id: serial('id').primaryKey(),
  provider: text('provider').notNull(),
  eventKey: text('event_key').notNull(),
  /** The provider's id of the payment the callback is about (the key part of payments.provider_ref). */
  providerRef: text('provider_ref').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  outcome: text('outcome'),
}, (t) => [
  uniqueIndex('payment_inbox_event_uq').on(t.provider, t.eventKey),
  index('payment_inbox_due_idx').on(t.nextAttemptAt).where(sql`${t.processedAt} is null`),
]);

export const refundRequests = pgTable('refund_requests', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => orders.id),
  amount: money('amount'),
  reason: text('reason').notNull().default(''),
  status: text('status').notNull().default('requested'),
  requestedBy: integer('requested_by').notNull().references(() => users.id),
  approvedBy: integer('approved_by').references(() => users.id),
  createdAt: createdAt(),
  approvedAt: timestamp('approved_at', { withTimezone: true }),
}, (t) => [index('refund_requests_order_idx').on(t.orderId)]);

/**
 * Money given back (issue 21, server/payments/refunds.ts): one row per refund of an order's payment,
 * written in the transaction of the lifecycle step that decides it, and sent to the provider that
 * took the payment by the refund worker after commit. At most one per order and cause.
 */
export const refunds = pgTable('refunds', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => orders.id),
  /** The paid payment it gives back; null for a cash order marked paid without a payment row. */
  paymentId: integer('payment_id').references(() => payments.id),
  /** The approved request it carries out (cause refundRequest). */
  refundRequestId: integer('refund_request_id').references(() => refundRequests.id),
  /** The adapter that took the money (payments.provider, else the payment system's). */
  provider: text('provider').notNull(),
  amount: money('amount'),
  currency: text('currency').notNull(),
  reason: text('reason').notNull().default(''),
  /** REFUND_CAUSES: 'rejected' | 'deadline' | 'refundRequest' | 'paidAfterRejection' */
  cause: text('cause').notNull(),
  /** REFUND_STATUSES: 'pending' → 'refunded' | 'failed'; 'owed' for cash (handed back at the branch). */
  status: text('status').notNull().default('pending'),
  providerRefundRef: text('provider_refund_ref'),
  /** The provider's last answer ('pending' means: ask refundStatus next, not refund). */
  providerStatus: text('provider_status'),
  /** Provider calls made (the backoff counts them); `retries`: staff retries of a failed refund (each a new idempotency key). */
  attempts: integer('attempts').notNull().default(0),
  retries: integer('retries').notNull().default(0),
  lastMessage: text('last_message'),
  /** When the worker may take it next; a worker's claim moves it a lease ahead. */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  retriedBy: integer('retried_by').references(() => users.id),
  /** Who marked an owed cash refund as handed back at the branch (refunded_at: when). */
  handedBackBy: integer('handed_back_by').references(() => users.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('refunds_order_cause_uq').on(t.orderId, t.cause),
  index('refunds_due_idx').on(t.nextAttemptAt).where(sql`"status" = 'pending'`),
]);
