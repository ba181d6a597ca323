/** A brand's configuration: taxes, delivery areas and fees, payment systems, address fields. */
import { boolean, doublePrecision, integer, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, arabic } from './columns';
import { brands } from './organisation';

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
