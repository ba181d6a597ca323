/** Users (staff and customers), brand managers, SMS codes, sends and limits. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { branches, brands, companies } from './organisation';

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
