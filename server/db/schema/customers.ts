/** Customers: addresses, cars, wallets and their ledger, groups, invitations, reward programs, requests, reward card scans. */
import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, createdAt, arabic } from './columns';
import { deliveryAreas } from './brandConfig';
import { branches, brands } from './organisation';
import { users } from './users';

export const customerAddresses = pgTable('customer_addresses', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  regionId: integer('region_id').notNull().references(() => deliveryAreas.id),
  areaId: integer('area_id').notNull().references(() => deliveryAreas.id),
  block: text('block').notNull(),
  street: text('street').notNull(),
  houseNo: text('house_no').notNull(),
  buildingNumber: text('building_number'),
  floor: text('floor'),
  jadda: text('jadda'),
  avenue: text('avenue'),
  apartment: text('apartment'),
  instructions: text('instructions'),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  createdAt: createdAt(),
}, (t) => [index('customer_addresses_user_idx').on(t.userId)]);

export const carBrands = pgTable('car_brands', { id: serial('id').primaryKey(), name: text('name').notNull(), nameAr: arabic('name_ar') });
export const carTypes = pgTable('car_types', { id: serial('id').primaryKey(), name: text('name').notNull(), nameAr: arabic('name_ar') });
export const carColors = pgTable('car_colors', { id: serial('id').primaryKey(), name: text('name').notNull(), nameAr: arabic('name_ar') });

export const customerCars = pgTable('customer_cars', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  carBrandId: integer('car_brand_id').notNull().references(() => carBrands.id),
  carTypeId: integer('car_type_id').notNull().references(() => carTypes.id),
  carColorId: integer('car_color_id').notNull().references(() => carColors.id),
  /** As domain/digits.ts normalisePlate writes it: '٢٣/٤٥٦٧٨' is saved as '23/45678', one car per plate and customer. */
  plateNumber: text('plate_number').notNull(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
}, (t) => [index('customer_cars_user_idx').on(t.userId), uniqueIndex('customer_cars_user_plate_uq').on(t.userId, t.plateNumber)]);

/** Loyalty wallet per customer and brand: points and money balances. */
export const customerWallets = pgTable('customer_wallets', {
  userId: integer('user_id').notNull().references(() => users.id),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  points: integer('points').notNull().default(0),
  balance: money('balance'),
  credit: money('credit'),
  punches: integer('punches').notNull().default(0),
  freeItems: integer('free_items').notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.userId, t.brandId] }),
  // The cached balances of the loyalty ledger (server/loyalty/ledger.ts) never go below zero.
  check('customer_wallets_points_ck', sql`${t.points} >= 0`),
  check('customer_wallets_balance_ck', sql`${t.balance} >= 0`),
  check('customer_wallets_credit_ck', sql`${t.credit} >= 0`),
  check('customer_wallets_punches_ck', sql`${t.punches} >= 0`),
  check('customer_wallets_free_items_ck', sql`${t.freeItems} >= 0`),
]);

/** Every change of a wallet, so no point is lost or counted twice. */
export const walletLedger = pgTable('wallet_ledger', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  orderId: integer('order_id'),
  /** 'wallet' | 'credit' | 'points' | 'punches' | 'freeItems' (server/loyalty/ledger.ts ACCOUNTS). */
  account: text('account').notNull(),
  /** Signed change of the account; the rows of a customer, brand and account sum to the cached balance. */
  amount: numeric('amount', { precision: 14, scale: 3 }).notNull(),
  /** What caused the change: 'order' | 'request' | 'adjustment' | 'opening', with the row's id. */
  referenceType: text('reference_type').notNull(),
  referenceId: integer('reference_id'),
  /** The user who made the change; null: the system (an order's lifecycle). */
  createdBy: integer('created_by'),
  idempotencyKey: text('idempotency_key').notNull(),
  /** What a client's key was first used for (server/loyalty/ledger.ts keyUse): the key again for another change is refused. */
  keyFingerprint: text('key_fingerprint'),
  reason: text('reason').notNull(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('wallet_ledger_idempotency_uq').on(t.idempotencyKey),
  check('wallet_ledger_account_ck', sql`${t.account} in ('wallet', 'credit', 'points', 'punches', 'freeItems')`),
  index('wallet_ledger_customer_idx').on(t.userId, t.brandId, t.account),
]);

export const customerGroups = pgTable('customer_groups', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  name: text('name').notNull(),
  discountPercent: numeric('discount_percent', { precision: 6, scale: 3 }).notNull().default('0'),
  isPrivatePointsProgram: boolean('is_private_points_program').notNull().default(false),
  createdAt: createdAt(),
});

export const customerGroupMembers = pgTable('customer_group_members', {
  groupId: integer('group_id').notNull().references(() => customerGroups.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => users.id),
}, (t) => [primaryKey({ columns: [t.groupId, t.userId] })]);

/**
 * An entry of a customers group's pre-invitation list (SPEC.md 3: keyed by phone, E.164). When the
 * phone registers (or already belongs to a customer), the customer joins the group once and
 * `joinedUserId` records it (server/services/preInvitationLists).
 */
export const preInvitations = pgTable('pre_invitations', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => customerGroups.id, { onDelete: 'cascade' }),
  /** The group's brand, kept on the row for the one scope predicate. */
  brandId: integer('brand_id').notNull().references(() => brands.id),
  phoneNumber: text('phone_number').notNull(),
  joinedUserId: integer('joined_user_id').references(() => users.id),
  joinedAt: timestamp('joined_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('pre_invitations_group_phone_uq').on(t.groupId, t.phoneNumber),
  index('pre_invitations_phone_idx').on(t.phoneNumber),
]);

/**
 * A branch's reward program (SPEC.md 3), one of three kinds: 'purchases' (a punch per qualifying
 * product bought; `target` punches become one free item), 'points' (`pointsPerKd` points per KD
 * paid) or 'discount' (`discountPercent` for the customers of `customerGroupId`).
 */
export const rewardPrograms = pgTable('reward_programs', {
  id: serial('id').primaryKey(),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  target: integer('target'),
  productIds: jsonb('product_ids').$type<number[]>().notNull().default([]),
  pointsPerKd: numeric('points_per_kd', { precision: 10, scale: 3 }),
  customerGroupId: integer('customer_group_id').references(() => customerGroups.id),
  discountPercent: numeric('discount_percent', { precision: 6, scale: 3 }),
  createdAt: createdAt(),
}, (t) => [
  index('reward_programs_branch_idx').on(t.branchId),
  // Earning is unambiguous: at most one active points and one active purchases program per branch.
  uniqueIndex('reward_programs_active_uq').on(t.branchId, t.kind).where(sql`${t.isActive} and ${t.kind} in ('points', 'purchases')`),
  check('reward_programs_kind_ck', sql`${t.kind} in ('purchases', 'points', 'discount')`),
]);

/**
 * A request to give a customer punches or free items (/CustomerRequest), or wallet or credit money
 * (/Request), decided by the approval machine (machines/approvalMachine.ts): only approval writes
 * to the ledger, once.
 */
export const customerRequests = pgTable('customer_requests', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  /** 'points' | 'punches' | 'freeItems' (/CustomerRequest) | 'wallet' | 'credit' (/Request, KD) */
  account: text('account').notNull(),
  amount: numeric('amount', { precision: 12, scale: 3 }).notNull(),
  reason: text('reason').notNull(),
  /** 'pending' | 'approved' | 'rejected' (the approval machine's states). */
  status: text('status').notNull().default('pending'),
  requestedBy: integer('requested_by').references(() => users.id),
  decidedBy: integer('decided_by').references(() => users.id),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  /** Why a request was rejected (required then, 1–500 characters); null for approved and pending ones. */
  decisionReason: text('decision_reason'),
  /** A direct adjustment call's client key when the call became this request: a retry asks once. */
  idempotencyKey: text('idempotency_key'),
  createdAt: createdAt(),
}, (t) => [
  index('customer_requests_brand_status_idx').on(t.brandId, t.status),
  uniqueIndex('customer_requests_idempotency_key_uq').on(t.idempotencyKey),
  check('customer_requests_account_ck', sql`${t.account} in ('points', 'punches', 'freeItems', 'wallet', 'credit')`),
  check('customer_requests_decision_reason_ck', sql`${t.decisionReason} is null or char_length(${t.decisionReason}) between 1 and 500`),
  // Four eyes (machines/approvalMachine.ts), kept by the database too: nobody decides their own request.
  check('customer_requests_not_own_ck', sql`${t.decidedBy} is null or ${t.requestedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`),
  check('customer_requests_amount_ck', sql`${t.amount} > 0`),
  // Punches and free items are counted whole; only the money accounts have fils.
  check('customer_requests_whole_ck', sql`${t.account} in ('wallet', 'credit') or ${t.amount} = trunc(${t.amount})`),
  check('customer_requests_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
]);

/**
 * A reward card scan (SPEC.md 3 "Reward-scan metrics", docs/decisions.md "Reward card scans"): staff
 * scan the QR of a customer's reward card at a branch, to reward a visit or to redeem. The
 * demographics of the statistics come from the customer's profile (users.gender, users.birth_date).
 */
export const rewardCardScans = pgTable('reward_card_scans', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  /** 'reward' | 'redemption' */
  scanType: text('scan_type').notNull(),
  /** The order being served when the card was scanned, if any. */
  orderId: integer('order_id'),
  /** The staff member who scanned; null: written by the system (the demo seed). */
  scannedBy: integer('scanned_by').references(() => users.id),
  /** A scanner's retry with the same key records nothing new. */
  idempotencyKey: text('idempotency_key'),
  createdAt: createdAt(),
}, (t) => [
  index('reward_card_scans_brand_idx').on(t.brandId, t.createdAt),
  index('reward_card_scans_user_idx').on(t.userId, t.brandId),
  uniqueIndex('reward_card_scans_idempotency_uq').on(t.idempotencyKey),
  check('reward_card_scans_type_ck', sql`${t.scanType} in ('reward', 'redemption')`),
]);
