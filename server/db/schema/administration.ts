/** Administration: advertisements, uploads, app releases, the audit log. */
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { brands } from './organisation';

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
