/** The statistics rollup (docs/decisions.md "Statistics at scale"). */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { money } from './columns';

/** h00 … h23: one orders count per hour of the day (order_daily_stats). */
export const HOUR_COLUMNS = Array.from({ length: 24 }, (_, h) => `h${String(h).padStart(2, '0')}`);
const hourColumns = () => Object.fromEntries(HOUR_COLUMNS.map((c) => [c, integer(c).notNull().default(0)]));

/**
 * The orders of one branch on one Kuwait calendar day, summed: what the statistics and the quality
 * report count, so a year of history is a few thousand rows instead of every order. Kept by
 * server/services/statistic/rollup.ts from the orders themselves (never by order intake).
 */
export const orderDailyStats = pgTable('order_daily_stats', {
  branchId: integer('branch_id').notNull(),
  /** Kuwait calendar day, as days since 1970-01-01 (weekday = (day + 4) % 7, 0 = Sunday). */
  day: integer('day').notNull(),
  brandId: integer('brand_id').notNull(),
  orders: integer('orders').notNull(),
  /** Totals of the orders whose money was received and kept (paid, refund not approved). */
  revenue: money('revenue'),
  /**
   * Orders by Kuwait hour of the day: h00 = 00:00–00:59 … h23 = 23:00–23:59. Columns, not an array:
   * summing 24 columns over a year of branch-days is about twice as fast as 24 subscripts of an array.
   */
  ...hourColumns(),
  accepted: integer('accepted').notNull(),
  rejected: integer('rejected').notNull(),
  notAcceptedInTime: integer('not_accepted_in_time').notNull(),
  noShows: integer('no_shows').notNull(),
  refunded: integer('refunded').notNull(),
  refundedAmount: money('refunded_amount'),
}, (t) => [primaryKey({ columns: [t.branchId, t.day] }), index('order_daily_stats_brand_day_idx').on(t.brandId, t.day)]);

/**
 * Each customer's first two and last orders at a brand (by placing time, id breaking ties): whether a
 * customer is new or returning in a period, without counting their orders.
 */
export const customerBrandOrders = pgTable('customer_brand_orders', {
  userId: integer('user_id').notNull(),
  brandId: integer('brand_id').notNull(),
  firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
  firstId: integer('first_id').notNull(),
  secondAt: timestamp('second_at', { withTimezone: true }),
  secondId: integer('second_id'),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  lastId: integer('last_id').notNull(),
}, (t) => [primaryKey({ columns: [t.userId, t.brandId] }), index('customer_brand_orders_brand_idx').on(t.brandId, t.lastAt)]);

/**
 * The quality report's histograms of the time to accept (placing → accepting) and to ready
 * (accepting → ready), in seconds. Bucket i holds the times in [BOUNDS[i-1], BOUNDS[i]) (bucket 0
 * below the first bound, the last bucket from the last bound up): SQL's width_bucket. Finer where
 * branches usually are, so the bucket that holds a percentile has few orders to read.
 */
export const ACCEPT_SECONDS_BOUNDS = [...Array.from({ length: 61 }, (_, i) => i * 10), 900, 1200, 1800, 3600, 7200];
export const READY_SECONDS_BOUNDS = [...Array.from({ length: 61 }, (_, i) => i * 30), 2700, 3600, 7200, 14400];
export const ACCEPT_COLUMNS = Array.from({ length: ACCEPT_SECONDS_BOUNDS.length + 1 }, (_, i) => `a${String(i).padStart(2, '0')}`);
export const READY_COLUMNS = Array.from({ length: READY_SECONDS_BOUNDS.length + 1 }, (_, i) => `r${String(i).padStart(2, '0')}`);
const countColumns = (names: string[]) => Object.fromEntries(names.map((c) => [c, integer(c).notNull().default(0)]));

/** Per branch and Kuwait day, how many accepted (readied) orders took how long (ACCEPT/READY_COLUMNS). */
export const orderDailyTimes = pgTable('order_daily_times', {
  branchId: integer('branch_id').notNull(),
  day: integer('day').notNull(),
  brandId: integer('brand_id').notNull(),
  ...countColumns(ACCEPT_COLUMNS),
  ...countColumns(READY_COLUMNS),
}, (t) => [primaryKey({ columns: [t.branchId, t.day] })]);

/**
 * The quality report's figures per branch and Kuwait calendar month (`month`: the month's first day,
 * as days since 1970-01-01): the sums of that month's rows of order_daily_stats and
 * order_daily_times, so a year is 12 rows a branch.
 */
export const orderMonthlyQuality = pgTable('order_monthly_quality', {
  branchId: integer('branch_id').notNull(),
  month: integer('month').notNull(),
  brandId: integer('brand_id').notNull(),
  orders: integer('orders').notNull(),
  accepted: integer('accepted').notNull(),
  rejected: integer('rejected').notNull(),
  notAcceptedInTime: integer('not_accepted_in_time').notNull(),
  noShows: integer('no_shows').notNull(),
  refunded: integer('refunded').notNull(),
  refundedAmount: money('refunded_amount'),
  ...countColumns(ACCEPT_COLUMNS),
  ...countColumns(READY_COLUMNS),
}, (t) => [primaryKey({ columns: [t.branchId, t.month] })]);

/**
 * Payment History's totals: the paid orders of a branch on a Kuwait day of payment, by method and
 * refund state (count and amount). Kept with the other rollups from the orders (never by intake).
 */
export const paymentDailyStats = pgTable('payment_daily_stats', {
  branchId: integer('branch_id').notNull(),
  day: integer('day').notNull(),
  brandId: integer('brand_id').notNull(),
  paymentSystemId: integer('payment_system_id').notNull(),
  refund: text('refund').notNull(),
  payments: integer('payments').notNull(),
  amount: money('amount'),
}, (t) => [primaryKey({ columns: [t.branchId, t.day, t.paymentSystemId, t.refund] })]);

/** Where the rollup has read up to (one row, id 1). */
export const statisticsWatermark = pgTable('statistics_watermark', {
  id: integer('id').primaryKey(),
  /** When the rollup was first built from every order; null: never (the next refresh builds it). */
  builtAt: timestamp('built_at', { withTimezone: true }),
  /** Every order id up to this one has been read, except `missingOrderIds`. */
  seenOrderId: integer('seen_order_id').notNull().default(0),
  /** Ids under seenOrderId that were not there when read (a writer still in its transaction, or rolled back), with when: [[id, epoch ms]]. */
  missingOrderIds: jsonb('missing_order_ids').notNull().default(sql`'[]'::jsonb`),
  /** The newest update time of a lifecycle-changed order read so far. */
  seenChangedAt: timestamp('seen_changed_at', { withTimezone: true }),
  /**
   * The lifecycle-changed orders of the re-read window (update time after seenChangedAt − the lag)
   * as they were when their days were last recomputed: [[id, version]]. One still at that version
   * has not moved since, so its days are not recomputed again.
   */
  seenChanges: jsonb('seen_changes').notNull().default(sql`'[]'::jsonb`),
});
