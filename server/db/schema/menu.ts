/** The menu: product types and sub-types, products, option groups, what a branch hides. */
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { MenuWindow } from '../../../domain/menuWindows';
import { money, arabic } from './columns';
import { branches, brands } from './organisation';

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
  /** When the shop offers it, per weekday on Kuwait's clock (domain/menuWindows.ts); empty: always (issue 25). */
  availabilityWindows: jsonb('availability_windows').$type<MenuWindow[]>().notNull().default([]),
});

export const productSubtypes = pgTable('product_subtypes', {
  id: serial('id').primaryKey(),
  typeId: integer('type_id').notNull().references(() => productTypes.id),
  name: text('name').notNull(),
  nameAr: arabic('name_ar'),
  sortOrder: integer('sort_order').notNull().default(0),
  isHidden: boolean('is_hidden').notNull().default(false),
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  /** When the shop offers it, per weekday on Kuwait's clock (domain/menuWindows.ts); empty: always (issue 25). */
  availabilityWindows: jsonb('availability_windows').$type<MenuWindow[]>().notNull().default([]),
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
  /** Energy per serving in kcal, 0..10000 (a check constraint); null: not given. */
  calories: integer('calories'),
  /**
   * Deleted from the menu (Products/DeleteProduct): gone from the shop and the admin tree, kept
   * because order lines point at it; their names and prices are copies (docs/decisions.md "Menu management").
   */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  /** When the shop offers it, per weekday on Kuwait's clock (domain/menuWindows.ts); empty: always (issue 25). */
  availabilityWindows: jsonb('availability_windows').$type<MenuWindow[]>().notNull().default([]),
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
