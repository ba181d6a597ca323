import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn, boolean, check, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Money columns: 3 decimals (KD). Computed in fils through domain/money.ts. */
const money = (name: string) => numeric(name, { precision: 12, scale: 3 }).notNull().default('0');
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** A name in Arabic, shown when a request asks for Arabic (Accept-Language); null: the English one is shown. */
const arabic = (column: string) => text(column);

// ─── organisation ────────────────────────────────────────────────────────────
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

// ─── users ───────────────────────────────────────────────────────────────────
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  userName: text('user_name').notNull(),
  emailAddress: text('email_address'),
  phoneNumber: text('phone_number'),
  fullName: text('full_name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  role: text('role').notNull(),
  companyId: integer('company_id').references(() => companies.id),
  brandId: integer('brand_id').references(() => brands.id),
  branchId: integer('branch_id').references(() => branches.id),
  isGuest: boolean('is_guest').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  gender: text('gender'),
  birthDate: text('birth_date'),
  /** Set when user management sets a staff user's password, so a change shows in the history without the password. */
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  /**
   * Moves on (+1) when every session of the user must end: a password change or reset, archiving,
   * "sign out everywhere". A token issued at an older generation is refused (server/auth/sessions.ts).
   */
  sessionGeneration: integer('session_generation').notNull().default(0),
  /** The language a customer uses the shop in (the shop's Accept-Language, kept when they order or read their inbox): their notices are written in it. Null: not known yet (the brand's default language). */
  language: text('language'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('users_user_name_uq').on(sql`lower(${t.userName})`),
  uniqueIndex('users_email_uq').on(sql`lower(${t.emailAddress})`),
  uniqueIndex('users_phone_uq').on(t.phoneNumber),
  // The staff order search finds registered customers by a part of their name or phone (pg_trgm).
  index('users_full_name_trgm_idx').using('gin', sql`${t.fullName} gin_trgm_ops`),
  index('users_phone_trgm_idx').using('gin', sql`${t.phoneNumber} gin_trgm_ops`),
]);

/**
 * The brands a brand manager manages (docs/decisions.md "Administration: users"): every brand of a
 * BRAND_MANAGER, their default one (users.brand_id) included, all in the manager's company. Their scope
 * is the union (server/resources/scope.ts).
 */
export const brandManagers = pgTable('brand_managers', {
  userId: integer('user_id').notNull().references(() => users.id),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.userId, t.brandId] }), index('brand_managers_brand_idx').on(t.brandId)]);

/** SMS codes (registration and password reset). The embedded SMS adapter writes here; staff read it on /ValidationCode. */
export const smsOutbox = pgTable('sms_outbox', {
  id: serial('id').primaryKey(),
  phoneNumber: text('phone_number').notNull(),
  purpose: text('purpose').notNull(), // 'register' | 'reset'
  code: text('code').notNull(),
  email: text('email'),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('sms_outbox_phone_idx').on(t.phoneNumber, t.purpose)]);

/**
 * A code sent through a real SMS provider (server/messages/smsProviders.ts): one row per outbox row,
 * with the provider's message id, the status its delivery receipts move ('sending', 'sent',
 * 'delivered', 'undelivered', 'failed') and the cost it reported. /ValidationCode shows these.
 */
export const smsSends = pgTable('sms_sends', {
  id: serial('id').primaryKey(),
  outboxId: integer('outbox_id').notNull().references(() => smsOutbox.id),
  provider: text('provider').notNull(),
  providerId: text('provider_id'),
  status: text('status').notNull().default('sending'),
  attempts: integer('attempts').notNull().default(0),
  cost: numeric('cost', { precision: 12, scale: 5 }),
  currency: text('currency'),
  error: text('error'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('sms_sends_outbox_uq').on(t.outboxId),
  index('sms_sends_provider_id_idx').on(t.provider, t.providerId),
  index('sms_sends_created_idx').on(t.createdAt),
]);

/** The SMS pumping circuit breaker (server/limits/smsGuard.ts), one row: sending pauses while `pausedAt` is set. */
export const smsGuard = pgTable('sms_guard', {
  id: integer('id').primaryKey().default(1),
  pausedAt: timestamp('paused_at', { withTimezone: true }),
  reason: text('reason'),
  resumedAt: timestamp('resumed_at', { withTimezone: true }),
  resumedBy: integer('resumed_by').references(() => users.id),
}, () => [check('sms_guard_one_row', sql`id = 1`)]);

/**
 * Limits on guessing and abuse (server/limits/, docs/decisions.md "Hardening: accounts and limits"):
 * one counter per key (an account, a client address, a phone, a number prefix, the whole platform),
 * counted in a window and blocked until a time. Kept here, not in memory, so every replica counts.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

// ─── menu ────────────────────────────────────────────────────────────────────
export const productTypes = pgTable('product_types', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  sortOrder: integer('sort_order').notNull().default(0),
  /** Hidden from the shop with everything under it (the /store tree's hide and unhide). */
  isHidden: boolean('is_hidden').notNull().default(false),
  /** Deleted from the menu; kept because archived products still point at it (docs/decisions.md "Menu management"). */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
});

export const productSubtypes = pgTable('product_subtypes', {
  id: serial('id').primaryKey(),
  typeId: integer('type_id').notNull().references(() => productTypes.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  sortOrder: integer('sort_order').notNull().default(0),
  isHidden: boolean('is_hidden').notNull().default(false),
  archivedAt: timestamp('archived_at', { withTimezone: true }),
});

export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  subtypeId: integer('subtype_id').notNull().references(() => productSubtypes.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  description: text('description').notNull().default(''),
  descriptionAr: arabic('description_ar'),
  price: money('price'),
  productImage: text('product_image'),
  productSecondImage: text('product_second_image'),
  productThirdImage: text('product_third_image'),
  productDeliveryText: text('product_delivery_text').notNull().default(''),
  productDeliveryTextAr: arabic('product_delivery_text_ar'),
  /** Points a customer spends to redeem this product for free. Null: not redeemable. */
  redeemPoints: integer('redeem_points'),
  isHidden: boolean('is_hidden').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  /**
   * Deleted from the menu (Products/DeleteProduct): gone from the shop and the admin tree, kept
   * because order lines point at it; their names and prices are copies (docs/decisions.md "Menu management").
   */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
}, (t) => [index('products_brand_idx').on(t.brandId)]);

/**
 * An option group. Either a product's own ("product item": size, milk…; product_id set), or an
 * addition group of a product type (ProductAddition; product_id null, product_type_id set) that
 * applies to the products linked to it in product_addition_groups.
 */
export const optionGroups = pgTable('option_groups', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  productId: integer('product_id').references(() => products.id, { onDelete: 'cascade' }),
  productTypeId: integer('product_type_id').references(() => productTypes.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  allowMultiple: boolean('allow_multiple').notNull().default(false),
  isRequired: boolean('is_required').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** An option ("sub item", "addition") of a group, with its price. */
export const optionItems = pgTable('option_items', {
  id: serial('id').primaryKey(),
  groupId: integer('group_id').notNull().references(() => optionGroups.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  price: money('price'),
  isHidden: boolean('is_hidden').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** The addition groups that apply to a product (the product form's "addition groups"). */
export const productAdditionGroups = pgTable('product_addition_groups', {
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').notNull().references(() => optionGroups.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.productId, t.groupId] })]);

/**
 * Per-branch availability switches (Branch/GetProductSwitchForBranchUser, GetAdditionSwitchForBranchUser).
 * A row switches the item off; with `unavailable_until` only until then ("sold out until"): reads
 * and the order check compare it with now(), so no job has to switch it back on.
 */
export const branchHiddenProducts = pgTable('branch_hidden_products', {
  branchId: integer('branch_id').notNull().references(() => branches.id),
  productId: integer('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
  unavailableUntil: timestamp('unavailable_until', { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.branchId, t.productId] })]);

export const branchHiddenOptions = pgTable('branch_hidden_options', {
  branchId: integer('branch_id').notNull().references(() => branches.id),
  optionItemId: integer('option_item_id').notNull().references(() => optionItems.id, { onDelete: 'cascade' }),
  unavailableUntil: timestamp('unavailable_until', { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.branchId, t.optionItemId] })]);

// ─── brand configuration ─────────────────────────────────────────────────────
export const taxes = pgTable('taxes', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  name: text('name').notNull(),
  percent: numeric('percent', { precision: 6, scale: 3 }).notNull(),
  isActive: boolean('is_active').notNull().default(true),
});

/** Governorates (parentId null) and their areas. */
export const deliveryAreas = pgTable('delivery_areas', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
});

export const brandHiddenDeliveryAreas = pgTable('brand_hidden_delivery_areas', {
  brandId: integer('brand_id').notNull().references(() => brands.id),
  areaId: integer('area_id').notNull().references(() => deliveryAreas.id),
}, (t) => [primaryKey({ columns: [t.brandId, t.areaId] })]);

export const brandDeliveryFees = pgTable('brand_delivery_fees', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  areaId: integer('area_id').notNull().references(() => deliveryAreas.id),
  amount: money('amount'),
  /** Orders at or above this subtotal deliver free. Null: never free. */
  freeAboveAmount: numeric('free_above_amount', { precision: 12, scale: 3 }),
}, (t) => [uniqueIndex('brand_delivery_fees_uq').on(t.brandId, t.areaId)]);

/** Payment systems: provider 'cash' is paid at the branch, 'sandbox' (or a real adapter) by card. */
export const paymentSystems = pgTable('payment_systems', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  provider: text('provider').notNull(),
  isCard: boolean('is_card').notNull().default(false),
});

export const brandPayments = pgTable('brand_payments', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  paymentSystemId: integer('payment_system_id').notNull().references(() => paymentSystems.id),
  isActive: boolean('is_active').notNull().default(true),
}, (t) => [uniqueIndex('brand_payments_uq').on(t.brandId, t.paymentSystemId)]);

/**
 * The optional delivery-address fields a brand asks for (domain/addressFields.ts): its label,
 * whether it is shown and whether it must be filled. A field without a row keeps the form's default.
 */
export const brandAddressFields = pgTable('brand_address_fields', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  fieldName: text('field_name').notNull(),
  label: text('label').notNull(),
  isRequired: boolean('is_required').notNull().default(false),
  isVisible: boolean('is_visible').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
}, (t) => [uniqueIndex('brand_address_fields_uq').on(t.brandId, t.fieldName)]);

// ─── customers ───────────────────────────────────────────────────────────────
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

// ─── orders ──────────────────────────────────────────────────────────────────
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
  // The quality report's exact percentiles (server/services/statistic/quality.ts): the accepted (and
  // readied) orders of a branch by their time in seconds, so the one histogram bucket that holds the
  // k-th time is read alone. A new order is neither accepted nor ready: intake adds no entry here.
  // Every column the expression reads is in the index, so the bucket is read index-only (an
  // expression alone makes PostgreSQL fetch each order from the table).
  index('orders_accept_seconds_idx').on(t.branchId, sql`(extract(epoch from (${t.acceptedAt} - ${t.createdAt})))`, t.createdAt, t.acceptedAt)
    .where(sql`${t.acceptedAt} is not null`),
  index('orders_ready_seconds_idx').on(t.branchId, sql`(extract(epoch from (${t.readyAt} - ${t.acceptedAt})))`, t.createdAt, t.acceptedAt, t.readyAt)
    .where(sql`${t.readyAt} is not null and ${t.acceptedAt} is not null`),
  // The same orders of every branch by their time alone: the whole scope's k-th time is a walk of
  // one bucket in order that stops at the rank (the branches and the period filtered on the way).
  index('orders_accept_seconds_all_idx').on(sql`(extract(epoch from (${t.acceptedAt} - ${t.createdAt})))`, t.branchId, t.createdAt, t.acceptedAt)
    .where(sql`${t.acceptedAt} is not null`),
  index('orders_ready_seconds_all_idx').on(sql`(extract(epoch from (${t.readyAt} - ${t.acceptedAt})))`, t.branchId, t.createdAt, t.acceptedAt, t.readyAt)
    .where(sql`${t.readyAt} is not null and ${t.acceptedAt} is not null`),
]);

// ─── statistics rollup (docs/decisions.md "Statistics at scale") ───────────────
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

// ─── administration ──────────────────────────────────────────────────────────
/**
 * News (SPEC.md 7 News: BrandAdvertisements): a brand's advertisement with an image, shown in the
 * shop's home while `isShown` and now lies within [startDate, endDate].
 */
export const brandAdvertisements = pgTable('brand_advertisements', {
  id: serial('id').primaryKey(),
  brandId: integer('brand_id').notNull().references(() => brands.id),
  title: text('title').notNull(),
  text: text('text').notNull().default(''),
  imageUrl: text('image_url').notNull(),
  startDate: timestamp('start_date', { withTimezone: true }).notNull(),
  endDate: timestamp('end_date', { withTimezone: true }).notNull(),
  isShown: boolean('is_shown').notNull().default(true),
  createdAt: createdAt(),
}, (t) => [index('brand_advertisements_brand_idx').on(t.brandId, t.startDate)]);

/**
 * Uploaded images not yet known to be attached to a record (server/services/files/sweep.ts): one row
 * per stored image's key, written before its file, refreshed when the same bytes come again. A day
 * after its upload the sweep removes the file unless a row of IMAGE_COLUMNS refers to it, and the row.
 */
export const uploads = pgTable('uploads', {
  key: text('key').primaryKey(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('uploads_uploaded_at_idx').on(t.uploadedAt)]);

/** Mobile app releases the apps check against (/AppUpdates). */
export const appUpdates = pgTable('app_updates', {
  id: serial('id').primaryKey(),
  /** 'android' | 'ios' */
  platform: text('platform').notNull(),
  version: text('version').notNull(),
  title: text('title').notNull(),
  notes: text('notes').notNull().default(''),
  isForceUpdate: boolean('is_force_update').notNull().default(false),
  releasedAt: timestamp('released_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who did what to which row, with the row before and after (docs/decisions.md "Administration:
 * the resource shape"). Written in the same transaction as the change; never updated.
 * `scope_id` is the row's company, brand or branch, so history stays scoped after a delete.
 */
export const auditLog = pgTable('audit_log', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  /** No foreign key: the history outlives the user. Null for the system. */
  userId: integer('user_id'),
  /** 'create' | 'update' | 'delete' */
  action: text('action').notNull(),
  resource: text('resource').notNull(),
  rowId: integer('row_id').notNull(),
  scopeId: integer('scope_id'),
  before: jsonb('before'),
  after: jsonb('after'),
}, (t) => [index('audit_log_row_idx').on(t.resource, t.rowId)]);

// ─── notifications ───────────────────────────────────────────────────────────
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
