import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { branchHiddenOptions, branchHiddenProducts, optionGroups, optionItems, products } from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;
export type OptionGroupRow = typeof optionGroups.$inferSelect;
export type OptionItemRow = typeof optionItems.$inferSelect;

export interface MenuOption { item: OptionItemRow; available: boolean }
export interface MenuGroup { group: OptionGroupRow; options: MenuOption[] }
export interface MenuProduct {
  product: ProductRow;
  /** Not hidden, neither for the whole brand nor for the branch. */
  available: boolean;
  groups: MenuGroup[];
}

/**
 * Products with their option groups and options as a branch offers them: a product or option is
 * unavailable when it is hidden (is_hidden) or switched off for the branch (branch_hidden_*).
 * With no branch, only the brand-wide hidden flags count.
 */
export async function loadMenuProducts(db: Db, productIds: number[], branchId: number | null): Promise<Map<number, MenuProduct>> {
  const ids = [...new Set(productIds)];
  const result = new Map<number, MenuProduct>();
  if (!ids.length) return result;
  const productRows = await db.select().from(products).where(inArray(products.id, ids));
  if (!productRows.length) return result;
  const groups = await db.select().from(optionGroups).where(inArray(optionGroups.productId, productRows.map((p) => p.id)))
    .orderBy(asc(optionGroups.sortOrder), asc(optionGroups.id));
  const items = groups.length
    ? await db.select().from(optionItems).where(inArray(optionItems.groupId, groups.map((g) => g.id))).orderBy(asc(optionItems.sortOrder), asc(optionItems.id))
    : [];
  const hiddenProducts = new Set(branchId === null ? [] : (await db.select({ id: branchHiddenProducts.productId }).from(branchHiddenProducts)
    .where(and(eq(branchHiddenProducts.branchId, branchId), inArray(branchHiddenProducts.productId, ids)))).map((r) => r.id));
  const hiddenOptions = new Set(branchId === null || !items.length ? [] : (await db.select({ id: branchHiddenOptions.optionItemId }).from(branchHiddenOptions)
    .where(and(eq(branchHiddenOptions.branchId, branchId), inArray(branchHiddenOptions.optionItemId, items.map((i) => i.id))))).map((r) => r.id));
  for (const product of productRows) {
    result.set(product.id, {
      product,
      available: !product.isHidden && !hiddenProducts.has(product.id),
      groups: groups.filter((g) => g.productId === product.id).map((group) => ({
        group,
        options: items.filter((i) => i.groupId === group.id).map((item) => ({ item, available: !item.isHidden && !hiddenOptions.has(item.id) })),
      })),
    });
  }
  return result;
}
