/** Companies, brands, branches and their online-ordering schedules. */
import { boolean, doublePrecision, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, arabic } from './columns';

export const companyCategories = pgTable('company_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
});

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  categoryId: integer('category_id').references(() => companyCategories.id),
  accessible: boolean('accessible').notNull().default(true),
  paused: boolean('paused').notNull().default(false),
  logoUrl: text('logo_url'),
  bannerUrl: text('banner_url'),
  createdAt: createdAt(),
});

export const currencies = pgTable('currencies', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  decimals: integer('decimals').notNull().default(3),
});

export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull().references(() => companies.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  logoUrl: text('logo_url'),
  bannerUrl: text('banner_url'),
  currencyId: integer('currency_id').notNull().references(() => currencies.id),
  /** domain/languages.ts: the language the brand's shop and messages start in. */
  defaultLanguage: text('default_language').notNull().default('en'),
  createdAt: createdAt(),
});

export const branches = pgTable('branches', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  logoUrl: text('logo_url'),
  /** 'HH:MM', local time of the branch */
  openTime: text('open_time').notNull().default('07:00'),
  closeTime: text('close_time').notNull().default('23:00'),
  branchAddress: text('branch_address').notNull().default(''),
  /** The address and delivery text in the Arabic shop; null: the English ones (docs/decisions.md, issue 12 helper F). */
  branchAddressAr: arabic('branch_address_ar'),
  branchPhoneNumber: text('branch_phone_number').notNull().default(''),
  deliveryText: text('delivery_text').notNull().default(''),
  deliveryTextAr: arabic('delivery_text_ar'),
  isBusy: boolean('is_busy').notNull().default(false),
  /** Busy switches itself off at this time (null: until switched off by hand). */
  busyUntil: timestamp('busy_until', { withTimezone: true }),
  /** A longer wait the branch announces (minutes added to its usual time) until delay_until. */
  delayMinutes: integer('delay_minutes').notNull().default(0),
  delayUntil: timestamp('delay_until', { withTimezone: true }),
  /** The branch's usual time to prepare an order, in minutes (domain/readyEstimate.ts; CHECK 1..240). */
  preparationMinutes: integer('preparation_minutes').notNull().default(15),
  /** A new order is accepted at once, as by a click (server/services/operations/autoAccept.ts); off by default. */
  autoAccept: boolean('auto_accept').notNull().default(false),
  /** Minutes a pending order waits before the server rejects it (domain/orderSettings.ts; CHECK 3..30). */
  acceptanceDeadlineMinutes: integer('acceptance_deadline_minutes').notNull().default(10),
  /** Capacity per time slot, per mode (domain/orderTime.ts, server/orders/slots.ts): the slot length in minutes (CHECK 5..120) and the most orders a slot takes (null: no limit). */
  pickupSlotMinutes: integer('pickup_slot_minutes').notNull().default(15),
  pickupSlotMax: integer('pickup_slot_max'),
  carServiceSlotMinutes: integer('car_service_slot_minutes').notNull().default(15),
  carServiceSlotMax: integer('car_service_slot_max'),
  deliverySlotMinutes: integer('delivery_slot_minutes').notNull().default(15),
  deliverySlotMax: integer('delivery_slot_max'),
  /** The most orders in progress (accepted + ready) before an order for now is refused; null: no limit. */
  inProgressMax: integer('in_progress_max'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  createdAt: createdAt(),
}, (t) => [index('branches_brand_idx').on(t.brandId)]);

/** Online-ordering schedule: one row per weekday (0 = Sunday) a branch takes online orders. */
export const branchSchedules = pgTable('branch_schedules', {
  id: serial('id').primaryKey(),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  dayOfWeek: integer('day_of_week').notNull(),
  openTime: text('open_time').notNull(),
  closeTime: text('close_time').notNull(),
}, (t) => [index('branch_schedules_branch_idx').on(t.branchId), uniqueIndex('branch_schedules_day_uq').on(t.branchId, t.dayOfWeek)]);
