import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { optionGroups, optionItems, products } from '../../db/schema';
import type { HistorySource } from '../../resources/audit';
import { placeInScope } from '../../resources/scope';

/**
 * The menu's rows as AuditLog/GetEntityHistory serves them (product types and sub-types are
 * declared resources, which serve their own). The menu's other calls are hand-written
 * (trees, whole-set forms, archiving), not declared resources, but every one of their writes
 * appends an audit entry named after the row (`auditMenu`, scope id = the row's brand); this is
 * what history needs to read them back: the resource name, the capability, and the row's brand.
 * Archived products, types and sub-types are still rows, so their history reads like a live
 * row's; deleted option groups and items are gone, so their entries are scoped by the brand kept
 * in each entry.
 */
type BrandOf = (db: Db | Tx, id: number) => Promise<number | undefined>;

function menuHistory(service: string, label: string, brandOf: BrandOf): HistorySource {
  return {
    service, label, scope: { level: 'brand', field: 'brandId' }, can: { view: 'menu.manage' },
    async rowScope(db, caller, id) {
      const brandId = await brandOf(db, id);
      if (brandId === undefined) return 'absent';
      return (await placeInScope(db, caller, 'brand', brandId)) ? 'inside' : 'outside';
    },
  };
}

const first = async (rows: Promise<{ brandId: number }[]>) => (await rows)[0]?.brandId;
const productBrand: BrandOf = (db, id) => first(db.select({ brandId: products.brandId }).from(products).where(eq(products.id, id)));
const groupBrand: BrandOf = (db, id) => first(db.select({ brandId: optionGroups.brandId }).from(optionGroups).where(eq(optionGroups.id, id)));
const itemBrand: BrandOf = (db, id) => first(db.select({ brandId: optionGroups.brandId }).from(optionItems)
  .innerJoin(optionGroups, eq(optionGroups.id, optionItems.groupId)).where(eq(optionItems.id, id)));

/** The menu rows whose history AuditLog/GetEntityHistory serves (the names `auditMenu` writes). */
export const MENU_HISTORY: readonly HistorySource[] = [
  menuHistory('Product', 'Product', productBrand),
  menuHistory('ProductItem', 'Product item', groupBrand),
  menuHistory('ProductSubItem', 'Product sub-item', itemBrand),
  menuHistory('ProductAdditionsGroup', 'Addition group', groupBrand),
  menuHistory('ProductAddition', 'Addition', itemBrand),
];
