import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db, Tx } from '../../db/client';
import { branches, optionGroups, optionItems, productAdditionGroups, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { ArabicName, arabicOrNull } from '../../http/language';
import type { Caller } from '../../http/context';
import { moneyDecimal } from '../../../domain/money';
import { menuWindowsError, type MenuWindow } from '../../../domain/menuWindows';
import { appendAudit, type AuditAction } from '../../resources/audit';
import { placeInScope, scopeWhere } from '../../resources/scope';

/**
 * What the menu's admin calls (ProductTypesAndSubtypes, Products, ProductAddition) share: the
 * brand scope of each menu row, the money and name rules, the item shapes and the audit entry.
 * Menu rows are placed in a brand directly (types, products, option groups carry `brand_id`) or
 * through their parent (a sub-type through its type, an option through its group); every read
 * and write goes through the one scope predicate (server/resources/scope.ts).
 */

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
export const SortOrder = Type.Integer({ minimum: 0, maximum: 100000 });
/** KD with 3 decimals, never negative; the 3-decimal rule is `checkPrice` (ajv's multipleOf misjudges binary fractions). */
export const Price = Type.Number({ minimum: 0, maximum: 99999.999, description: 'KD, up to 3 decimals.' });

// ─── item shapes ─────────────────────────────────────────────────────────────
export const MenuSubItem = Obj('MenuSubItem', {
  id: Type.Integer(), groupId: Type.Integer(), name: Type.String(), nameAr: Nullable(Type.String({ description: 'Its name in the Arabic shop; null: the English name.' })), price: Type.Number(), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
});
export const MenuOptionGroup = Obj('MenuOptionGroup', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  productId: Nullable(Type.Integer({ description: "The product whose own group this is; null for an addition group." })),
  productTypeId: Nullable(Type.Integer({ description: 'The product type an addition group is offered for; null for a product\'s own group.' })),
  name: Type.String(), nameAr: Nullable(Type.String({ description: 'Its name in the Arabic shop; null: the English name.' })), allowMultiple: Type.Boolean(), isRequired: Type.Boolean(), sortOrder: Type.Integer(),
  subItems: Type.Array(MenuSubItem),
});
export type MenuOptionGroupItem = {
  id: number; brandId: number; productId: number | null; productTypeId: number | null; name: string; nameAr: string | null; allowMultiple: boolean; isRequired: boolean; sortOrder: number;
  subItems: { id: number; groupId: number; name: string; nameAr: string | null; price: number; isHidden: boolean; sortOrder: number }[];
};

/** A sub-item as a form sends it: with `id` to keep (and change) an existing one, without to add one. */
export const SubItemInput = Obj('MenuSubItemInput', {
  id: Type.Optional(Id), name: Name, nameAr: Type.Optional(ArabicName), price: Price, isHidden: Type.Optional(Type.Boolean()),
});
/** An option group as a form sends it; a group has at least one sub-item. */
export const OptionGroupInput = Obj('MenuOptionGroupInput', {
  id: Type.Optional(Id), name: Name, nameAr: Type.Optional(ArabicName), allowMultiple: Type.Boolean({ default: false }), isRequired: Type.Boolean({ default: false }),
  subItems: Type.Array(SubItemInput, { minItems: 1, maxItems: 50 }),
});
export type SubItemInputT = { id?: number; name: string; nameAr?: string; price: number; isHidden?: boolean };
export type OptionGroupInputT = { id?: number; name: string; nameAr?: string; allowMultiple: boolean; isRequired: boolean; subItems: SubItemInputT[] };
/** The Arabic name as sent: absent leaves it as it is, empty clears it (domain/arabicName.ts). */
export const arabicNameValue = (nameAr: string | undefined) => (nameAr === undefined ? {} : { nameAr: arabicOrNull(nameAr) });

// ─── rules ───────────────────────────────────────────────────────────────────
const invalid = (field: string, message: string) => badRequest(message, [{ message, members: [field] }]);

/** A price in KD: at most 3 decimals (the schema has already refused negative and non-numeric ones). */
export function checkPrice(value: number | undefined, field: string) {
  if (value === undefined) return;
  if (Math.abs(Math.round(value * 1000) - value * 1000) > 1e-6) throw invalid(field, `${field}: a price has at most 3 decimals (KD).`);
}

/**
 * Availability windows of a product type, sub-type or product (issue 25, domain/menuWindows.ts):
 * the schema takes integers; what they mean (weekday 0..6, minutes 0..1440, a start unlike its
 * end) is checked by `checkWindows`, so the 400 says it in one sentence.
 */
export const AvailabilityWindow = Obj('MenuAvailabilityWindow', {
  weekday: Type.Integer({ description: '0 = Sunday … 6 = Saturday, on the branch clock (Kuwait).' }),
  fromMinute: Type.Integer({ description: 'Start, minutes since midnight (0..1439).' }),
  toMinute: Type.Integer({ description: 'End (not included), minutes since midnight (1..1440); before the start: the window runs past midnight into the next day.' }),
});
export const AvailabilityWindows = Type.Array(AvailabilityWindow, { maxItems: 100, description: 'When the shop offers it; empty: always.' });

/** The windows as stored, or a 400 naming what is wrong (nothing is written). */
export function checkWindows(windows: MenuWindow[], field = 'availabilityWindows'): MenuWindow[] {
  const problem = menuWindowsError(windows);
  if (problem) throw invalid(field, problem);
  return windows.map(({ weekday, fromMinute, toMinute }) => ({ weekday, fromMinute, toMinute }));
}

export function checkGroups(groups: OptionGroupInputT[] | undefined, field = 'optionGroups') {
  groups?.forEach((g, gi) => {
    if (!g.subItems?.length) throw invalid(`${field}[${gi}].subItems`, `The option group "${g.name}" has no items: give it at least one.`);
    g.subItems.forEach((s, si) => checkPrice(s.price, `${field}[${gi}].subItems[${si}].price`));
  });
}

/**
 * The siblings of a menu row: the live rows of one parent (a product within its sub-type, a
 * sub-type within its type, a type within its brand). Names are unique among them, compared
 * without case and outer spaces, so the shop never shows two "Latte"s side by side; and
 * `sort_order` numbers them 0..n-1, the order of the shop and of the /store tree.
 */
const SIBLINGS = {
  product: { table: products, parent: products.subtypeId, live: isNull(products.archivedAt), label: 'A product in this sub-type' },
  subtype: { table: productSubtypes, parent: productSubtypes.typeId, live: isNull(productSubtypes.archivedAt), label: 'A sub-type of this type' },
  type: { table: productTypes, parent: productTypes.brandId, live: isNull(productTypes.archivedAt), label: 'A product type of this brand' },
} as const;

export async function nameTaken(db: Db | Tx, what: keyof typeof SIBLINGS, parentId: number, name: string, exceptId: number | null) {
  const { table, parent, live } = SIBLINGS[what];
  const rows = await db.select({ id: table.id }).from(table)
    .where(and(eq(parent, parentId), live, sql`lower(btrim(${table.name})) = lower(btrim(${name}))`, exceptId ? ne(table.id, exceptId) : undefined)).limit(1);
  return rows.length > 0;
}

export async function checkUniqueName(db: Db | Tx, what: keyof typeof SIBLINGS, parentId: number, name: string, exceptId: number | null) {
  if (await nameTaken(db, what, parentId, name, exceptId)) throw invalid('name', `${SIBLINGS[what].label} is already called "${name.trim()}".`);
}

/**
 * Puts row `id` at `position` (0-based; past the end, or 'last', means last) among its live
 * siblings and numbers them 0..n-1, under their row locks, so two moves at once never leave two
 * rows on one place. Answers the row's new sort order. Only the moved row's own write is audited:
 * the others' numbers follow from it.
 */
export async function placeAmongSiblings(tx: Tx, what: keyof typeof SIBLINGS, parentId: number, id: number, position: number | 'last') {
  const { table, parent, live } = SIBLINGS[what];
  const rows = await tx.select({ id: table.id, sortOrder: table.sortOrder }).from(table)
    .where(and(eq(parent, parentId), live, ne(table.id, id))).orderBy(asc(table.sortOrder), asc(table.id)).for('update');
  const at = position === 'last' ? rows.length : Math.min(position, rows.length);
  const order = [...rows.slice(0, at).map((r) => r.id), id, ...rows.slice(at).map((r) => r.id)];
  const current = new Map(rows.map((r) => [r.id, r.sortOrder]));
  for (const [i, rowId] of order.entries()) {
    if (current.get(rowId) !== i) await tx.update(table).set({ sortOrder: i }).where(eq(table.id, rowId));
  }
  return at;
}

// ─── scope ───────────────────────────────────────────────────────────────────
/** The caller's brands as a where fragment on a brand column. */
export const inBrandScope = (caller: Caller, brandColumn: Parameters<typeof scopeWhere>[1]['brandId']) => scopeWhere(caller, { brandId: brandColumn });

/** A brand the caller manages, as a parent id sent in a body or query: 400 naming the field otherwise (the shape's rule). */
export async function brandInScope(db: Db | Tx, caller: Caller, brandId: number, field = 'brandId') {
  if (!(await placeInScope(db, caller, 'brand', brandId))) throw invalid(field, `There is no brand ${brandId} you can manage.`);
}

/** A branch in the caller's scope (a branch user: their own branch only): 404 otherwise. */
export async function branchBrandInScope(db: Db | Tx, caller: Caller, branchId: number): Promise<number> {
  const [row] = await db.select({ brandId: branches.brandId }).from(branches)
    .where(and(eq(branches.id, branchId), scopeWhere(caller, { brandId: branches.brandId, branchId: branches.id }))).limit(1);
  if (!row) throw notFound('Branch');
  return row.brandId;
}

type Lock = { lock?: boolean };
const maybeLock = <T extends { for: (s: 'update') => unknown }>(q: T, opts: Lock) => (opts.lock ? (q.for('update') as unknown as T) : q);

/** A live product type in the caller's scope; 404 otherwise (existence is not revealed). */
export async function typeInScope(db: Db | Tx, caller: Caller, id: number, opts: Lock = {}) {
  const [row] = await maybeLock(db.select().from(productTypes)
    .where(and(eq(productTypes.id, id), isNull(productTypes.archivedAt), inBrandScope(caller, productTypes.brandId))), opts);
  if (!row) throw notFound('Product type');
  return row;
}

export async function subtypeInScope(db: Db | Tx, caller: Caller, id: number, opts: Lock = {}) {
  const [row] = await maybeLock(db.select({ subtype: productSubtypes, brandId: productTypes.brandId }).from(productSubtypes)
    .innerJoin(productTypes, eq(productTypes.id, productSubtypes.typeId))
    .where(and(eq(productSubtypes.id, id), isNull(productSubtypes.archivedAt), inBrandScope(caller, productTypes.brandId))), opts);
  if (!row) throw notFound('Product sub-type');
  return row;
}

/** A live (not deleted) product in the caller's scope; 404 otherwise. */
export async function productInScope(db: Db | Tx, caller: Caller, id: number, opts: Lock = {}) {
  const [row] = await maybeLock(db.select().from(products)
    .where(and(eq(products.id, id), isNull(products.archivedAt), inBrandScope(caller, products.brandId))), opts);
  if (!row) throw notFound('Product');
  return row;
}

/** An option group ("product item") or addition group in the caller's scope, of a live product; 404 otherwise. */
export async function groupInScope(db: Db | Tx, caller: Caller, id: number, kind: 'product' | 'addition' | 'any' = 'any') {
  const [row] = await db.select({ group: optionGroups, archived: products.archivedAt }).from(optionGroups)
    .leftJoin(products, eq(products.id, optionGroups.productId))
    .where(and(eq(optionGroups.id, id), inBrandScope(caller, optionGroups.brandId))).limit(1);
  const ok = row && row.archived === null
    && (kind === 'any' || (kind === 'product') === (row.group.productId !== null));
  if (!ok) throw notFound(kind === 'addition' ? 'Addition group' : 'Product item');
  return row.group;
}

/** A sub-item (an option, or an addition) in the caller's scope; 404 otherwise. */
export async function subItemInScope(db: Db | Tx, caller: Caller, id: number, kind: 'product' | 'addition' | 'any' = 'any') {
  const [row] = await db.select({ item: optionItems, groupId: optionGroups.id, productId: optionGroups.productId, archived: products.archivedAt }).from(optionItems)
    .innerJoin(optionGroups, eq(optionGroups.id, optionItems.groupId))
    .leftJoin(products, eq(products.id, optionGroups.productId))
    .where(and(eq(optionItems.id, id), inBrandScope(caller, optionGroups.brandId))).limit(1);
  const ok = row && row.archived === null && (kind === 'any' || (kind === 'product') === (row.productId !== null));
  if (!ok) throw notFound(kind === 'addition' ? 'Addition' : 'Product sub-item');
  return row.item;
}

// ─── reads ───────────────────────────────────────────────────────────────────
type GroupRow = typeof optionGroups.$inferSelect;
type ItemRow = typeof optionItems.$inferSelect;
export const subItemOf = (i: ItemRow) => ({ id: i.id, groupId: i.groupId, name: i.name, nameAr: i.nameAr, price: Number(i.price), isHidden: i.isHidden, sortOrder: i.sortOrder });

/** Groups with their sub-items, in menu order. */
export async function groupsWithItems(db: Db | Tx, where: SQL | undefined): Promise<MenuOptionGroupItem[]> {
  const groups: GroupRow[] = await db.select().from(optionGroups).where(where).orderBy(asc(optionGroups.sortOrder), asc(optionGroups.id));
  if (!groups.length) return [];
  const items = await db.select().from(optionItems).where(inArray(optionItems.groupId, groups.map((g) => g.id)))
    .orderBy(asc(optionItems.sortOrder), asc(optionItems.id));
  return groups.map((g) => ({
    id: g.id, brandId: g.brandId, productId: g.productId, productTypeId: g.productTypeId, name: g.name, nameAr: g.nameAr,
    allowMultiple: g.allowMultiple, isRequired: g.isRequired, sortOrder: g.sortOrder,
    subItems: items.filter((i) => i.groupId === g.id).map(subItemOf),
  }));
}

/** The addition groups linked to a product. */
export async function additionGroupIdsOf(db: Db | Tx, productId: number): Promise<number[]> {
  return (await db.select({ id: productAdditionGroups.groupId }).from(productAdditionGroups)
    .where(eq(productAdditionGroups.productId, productId)).orderBy(asc(productAdditionGroups.groupId))).map((r) => r.id);
}

// ─── writes ──────────────────────────────────────────────────────────────────
/**
 * Writes one group's sub-items as the form sent them: ids kept (and changed), new ones added,
 * the ones left out removed (an order line keeps its own copy of an option, so nothing refers to
 * them but the per-branch switches, which go with them). An id that is not this group's is a 400.
 */
export async function writeSubItems(tx: Tx, groupId: number, subItems: SubItemInputT[], field: string) {
  const existing = await tx.select({ id: optionItems.id }).from(optionItems).where(eq(optionItems.groupId, groupId));
  const known = new Set(existing.map((r) => r.id));
  const kept = new Set<number>();
  for (const [i, s] of subItems.entries()) {
    const values = { name: s.name.trim(), ...arabicNameValue(s.nameAr), price: moneyDecimal(s.price), sortOrder: i, ...(s.isHidden !== undefined && { isHidden: s.isHidden }) };
    if (s.id !== undefined) {
      if (!known.has(s.id) || kept.has(s.id)) throw invalid(`${field}[${i}].id`, `Sub-item ${s.id} is not an item of this group.`);
      kept.add(s.id);
      await tx.update(optionItems).set(values).where(eq(optionItems.id, s.id));
    } else {
      await tx.insert(optionItems).values({ groupId, ...values });
    }
  }
  const gone = [...known].filter((id) => !kept.has(id));
  if (gone.length) await tx.delete(optionItems).where(inArray(optionItems.id, gone));
}

/** Creates a group with its sub-items; a product's own group (productId) or an addition group (productTypeId). */
export async function insertGroup(tx: Tx, owner: { brandId: number; productId?: number; productTypeId?: number }, g: OptionGroupInputT, sortOrder: number, field: string) {
  const [group] = await tx.insert(optionGroups).values({
    brandId: owner.brandId, productId: owner.productId ?? null, productTypeId: owner.productTypeId ?? null,
    name: g.name.trim(), ...arabicNameValue(g.nameAr), allowMultiple: g.allowMultiple, isRequired: g.isRequired, sortOrder,
  }).returning();
  await writeSubItems(tx, group.id, g.subItems.map(({ id: _id, ...s }) => s), `${field}.subItems`);
  return group;
}

/** Appends the menu row's history entry in the write's own transaction (server/resources/audit.ts). */
export const auditMenu = (tx: Tx, caller: Caller, resource: string, action: AuditAction, rowId: number, scopeId: number, before: unknown, after: unknown) =>
  appendAudit(tx, caller, {
    action, resource, rowId, scopeId,
    before: before as Record<string, unknown> | null, after: after as Record<string, unknown> | null,
  });
