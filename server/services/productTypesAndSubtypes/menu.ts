import { and, asc, eq, gt, inArray, isNull, or, sql, type AnyColumn } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db, Tx } from '../../db/client';
import { badRequest } from '../../http/envelope';
import { productAvailableAt, type MenuWindow } from '../../../domain/menuWindows';
import { addDays, dayKey, momentOf } from '../../../domain/time';
import { ORDER_AHEAD_DAYS } from '../../../domain/orderTime';
import {
  branchHiddenOptions, branchHiddenProducts, optionGroups, optionItems, productAdditionGroups, products, productSubtypes, productTypes,
} from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;
export type OptionGroupRow = typeof optionGroups.$inferSelect;
export type OptionItemRow = typeof optionItems.$inferSelect;

export interface MenuOption { item: OptionItemRow; available: boolean; unavailableUntil: Date | null }
export interface MenuGroup { group: OptionGroupRow; options: MenuOption[] }
export interface MenuProduct {
  product: ProductRow;
  /** Neither hidden for the brand (product, sub-type or type) nor switched off for the branch. */
  available: boolean;
  /** Hidden for the whole brand: the shop leaves it out (a 404 on its page). */
  hidden: boolean;
  /** Switched off for the branch until this time ("sold out until"); null when not, or until switched back on. */
  unavailableUntil: Date | null;
  /** The product's own option groups, then the addition groups linked to it. */
  groups: MenuGroup[];
  /** The availability windows of its type, its sub-type and itself (domain/menuWindows.ts); `available` does not read them: they depend on the order's time. */
  windows: MenuWindows;
}

export interface MenuWindows { type: MenuWindow[]; subtype: MenuWindow[]; product: MenuWindow[] }

/** Whether a menu product is offered at the order's time `at` (its type's, sub-type's and own windows). */
export const offeredAt = (m: { windows: MenuWindows }, at: Date) => productAvailableAt(m.windows, at);

/** A moment a little before the server's now still reads as now: the shop's clock may lag the server's. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The `at` of the shop's menu reads: the time the customer orders for (ISO); absent: now. */
export const MenuAt = Type.Optional(Type.String({ maxLength: 40, description: 'The time the order is for (ISO 8601): what is not offered then (menus by time of day) is marked unavailable. Absent: now. From now to 7 days ahead.' }));

/** The menu read's `at` as a moment: now when absent; a 400 when it is not a time from now to 7 days ahead. */
export function menuTimeOf(at: string | undefined, now = new Date()): Date {
  if (at === undefined) return now;
  const moment = /^\d{4}-\d{2}-\d{2}T/.test(at) ? momentOf(at) : null;
  // As far ahead as an order may be for (domain/orderTime.ts): today and the next ORDER_AHEAD_DAYS days on Kuwait's calendar.
  if (!moment || moment.getTime() < now.getTime() - CLOCK_SKEW_MS || dayKey(moment) > addDays(dayKey(now), ORDER_AHEAD_DAYS)) {
    throw badRequest(`\`at\` must be a time (ISO 8601) from now to ${ORDER_AHEAD_DAYS} days ahead.`, [{ message: `From now to ${ORDER_AHEAD_DAYS} days ahead.`, members: ['at'] }]);
  }
  return moment;
}

/**
 * A per-branch switch row counts while it has no end or its end is still ahead: "sold out until"
 * expires by itself, with no job, because every read and the order check compare with now().
 */
export const switchStillOn = (until: AnyColumn) => or(isNull(until), gt(until, sql`now()`));

/** Products that exist on a menu: not deleted (archived products stay only for the orders that name them). */
export const liveProduct = isNull(products.archivedAt);

/**
 * Products with their option groups and options as a branch offers them. A deleted (archived)
 * product is absent. A product is unavailable when it, its sub-type or its type is hidden, or it
 * is switched off for the branch (branch_hidden_products, until its `unavailable_until`); an option
 * likewise (option_items.is_hidden, branch_hidden_options). Addition groups linked to the product
 * (product_addition_groups) follow its own groups. With no branch, only the brand-wide flags count.
 */
export async function loadMenuProducts(db: Db | Tx, productIds: number[], branchId: number | null): Promise<Map<number, MenuProduct>> {
  const ids = [...new Set(productIds)];
  const result = new Map<number, MenuProduct>();
  if (!ids.length) return result;
  const productRows = await db
    .select({
      product: products, typeHidden: productTypes.isHidden, subtypeHidden: productSubtypes.isHidden,
      typeWindows: productTypes.availabilityWindows, subtypeWindows: productSubtypes.availabilityWindows,
    })
    .from(products)
    .innerJoin(productSubtypes, eq(productSubtypes.id, products.subtypeId))
    .innerJoin(productTypes, eq(productTypes.id, productSubtypes.typeId))
    .where(and(inArray(products.id, ids), liveProduct));
  if (!productRows.length) return result;
  const liveIds = productRows.map((r) => r.product.id);
  const links = await db.select().from(productAdditionGroups).where(inArray(productAdditionGroups.productId, liveIds));
  const groups = await db.select().from(optionGroups)
    .where(or(inArray(optionGroups.productId, liveIds), links.length ? inArray(optionGroups.id, links.map((l) => l.groupId)) : sql`false`))
    .orderBy(asc(optionGroups.sortOrder), asc(optionGroups.id));
  const items = groups.length
    ? await db.select().from(optionItems).where(inArray(optionItems.groupId, groups.map((g) => g.id))).orderBy(asc(optionItems.sortOrder), asc(optionItems.id))
    : [];
  const offProducts = new Map(branchId === null ? [] : (await db.select({ id: branchHiddenProducts.productId, until: branchHiddenProducts.unavailableUntil }).from(branchHiddenProducts)
    .where(and(eq(branchHiddenProducts.branchId, branchId), inArray(branchHiddenProducts.productId, liveIds), switchStillOn(branchHiddenProducts.unavailableUntil))))
    .map((r) => [r.id, r.until] as const));
  const offOptions = new Map(branchId === null || !items.length ? [] : (await db.select({ id: branchHiddenOptions.optionItemId, until: branchHiddenOptions.unavailableUntil }).from(branchHiddenOptions)
    .where(and(eq(branchHiddenOptions.branchId, branchId), inArray(branchHiddenOptions.optionItemId, items.map((i) => i.id)), switchStillOn(branchHiddenOptions.unavailableUntil))))
    .map((r) => [r.id, r.until] as const));
  const groupView = (group: OptionGroupRow): MenuGroup => ({
    group,
    options: items.filter((i) => i.groupId === group.id).map((item) => ({
      item, available: !item.isHidden && !offOptions.has(item.id), unavailableUntil: offOptions.get(item.id) ?? null,
    })),
  });
  for (const { product, typeHidden, subtypeHidden, typeWindows, subtypeWindows } of productRows) {
    const hidden = product.isHidden || typeHidden || subtypeHidden;
    const linked = new Set(links.filter((l) => l.productId === product.id).map((l) => l.groupId));
    result.set(product.id, {
      product,
      hidden,
      available: !hidden && !offProducts.has(product.id),
      unavailableUntil: offProducts.get(product.id) ?? null,
      groups: [
        ...groups.filter((g) => g.productId === product.id),
        ...groups.filter((g) => g.productId === null && linked.has(g.id)),
      ].map(groupView),
      windows: { type: typeWindows, subtype: subtypeWindows, product: product.availabilityWindows },
    });
  }
  return result;
}
