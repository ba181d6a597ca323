/** Notifications: requests, sends, the customer inbox, web push subscriptions, the catalogue version. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { customerGroups } from './customers';
import { brands } from './organisation';
import { users } from './users';

/**
 * A notification staff below ADMIN asked to send (/NotificationRequest), decided on /notifications
 * through machines/approvalMachine.ts. Its target is the brand's customers, or one customer group
 * of the brand when `groupId` is set (docs/decisions.md "Notifications").
 */
export const notificationRequests = pgTable('notification_requests', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  groupId: integer('group_id').references(() => customerGroups.id),
  title: text('title').notNull(),
  text: text('text').notNull(),
  /** 'pending' | 'approved' | 'rejected' (the approval machine's states). */
  status: text('status').notNull().default('pending'),
  requestedBy: integer('requested_by').references(() => users.id),
  decidedBy: integer('decided_by').references(() => users.id),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  /** Why it was rejected (1–500 characters; required by RejectNotificationsRequests). */
  decisionReason: text('decision_reason'),
  createdAt: createdAt(),
}, (t) => [
  index('notification_requests_brand_status_idx').on(t.brandId, t.status),
  check('notification_requests_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
]);

/**
 * A sent notification. `requestId` is unique, so an approved request is sent once whatever is
 * clicked twice; `recipients` is how many inboxes it reached.
 */
export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  groupId: integer('group_id').references(() => customerGroups.id),
  title: text('title').notNull(),
  text: text('text').notNull(),
  requestId: integer('request_id').references(() => notificationRequests.id),
  sentBy: integer('sent_by').references(() => users.id),
  recipients: integer('recipients').notNull().default(0),
  /** An order's status notice (server/notify/orderPushes.ts): pushed with the order's topic, one per order and status. */
  orderId: integer('order_id'),
  orderStatus: text('order_status'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('notifications_request_uq').on(t.requestId),
  uniqueIndex('notifications_order_status_uq').on(t.orderId, t.orderStatus).where(sql`order_id is not null`),
]);

/**
 * A customer's inbox (the shop's bell): one row per notification and customer. `pushPending` marks
 * the rows web push still has to send (only when push is configured and the customer subscribed);
 * a sender leases a batch with `pushClaimedUntil`, so replicas never send one row twice at once.
 */
export const customerNotifications = pgTable('customer_notifications', {
  notificationId: integer('notification_id').notNull().references(() => notifications.id),
  userId: integer('user_id').notNull().references(() => users.id),
  readAt: timestamp('read_at', { withTimezone: true }),
  pushPending: boolean('push_pending').notNull().default(false),
  pushClaimedUntil: timestamp('push_claimed_until', { withTimezone: true }),
}, (t) => [
  primaryKey({ columns: [t.notificationId, t.userId] }),
  index('customer_notifications_user_idx').on(t.userId, t.notificationId),
  index('customer_notifications_push_idx').on(t.notificationId).where(sql`push_pending`),
]);

/** A browser's web push subscription (PushSubscription.toJSON()), removed when the push service answers 404 or 410. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  endpoint: text('endpoint').notNull(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  createdAt: createdAt(),
  /** The last push its push service took (2xx); none in 60 days and it is pruned (server/notify/pushLoop.ts). */
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('push_subscriptions_endpoint_uq').on(t.endpoint),
  index('push_subscriptions_user_idx').on(t.userId),
]);

/**
 * One row whose `version` moves, in the same transaction, with every change of what prices and
 * admits an order: the branch and its brand, company and currency, schedules, payment methods,
 * taxes, products, types, option groups and items, and the branch switches (deferred row triggers,
 * migration catalog_version). Order intake plans from a per-process cache of these rows
 * (server/orders/menuCache.ts) and writes the order only while this version is the one it read.
 */
export const catalogVersion = pgTable('catalog_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(0),
});
