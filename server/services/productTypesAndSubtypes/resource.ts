import { Type } from 'typebox';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { optionGroups, products, productSubtypes, productTypes } from '../../db/schema';
import { conflict, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { ArabicName, arabicOrNull } from '../../http/language';
import { defineResource } from '../../resources/resource';
import { AvailabilityWindows, checkUniqueName, checkWindows, Id, Name, placeAmongSiblings, SortOrder } from './menuAdmin';

/**
 * Product types and their sub-types (SPEC.md 7 Menu management, ProductTypesAndSubtypes): two
 * declared resources under one legacy service. Their writes are the shape's (scoped, audited as
 * 'ProductType' / 'ProductSubType' under the brand); what is theirs: a name unique among live
 * siblings, a place among them (`sortOrder`, 0-based; a new or moved row goes last), delete
 * archives (a non-empty one is a 409), and a sub-type is placed by its type's brand. The item
 * schemas are the trees' too (the /store tree, the product form's dictionary); the service's other
 * calls are admin.ts.
 */
export const MenuProductType = Obj('MenuProductType', {
  id: Type.Integer(), brandId: Type.Integer(), name: Type.String(), nameAr: Nullable(Type.String()), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
  availabilityWindows: AvailabilityWindows,
});
export const MenuProductSubType = Obj('MenuProductSubType', {
  id: Type.Integer(), typeId: Type.Integer(), name: Type.String(), nameAr: Nullable(Type.String()), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
  availabilityWindows: AvailabilityWindows,
});

const fields = { name: Name, nameAr: Type.Optional(ArabicName), isHidden: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(Type.Integer({ ...SortOrder, description: 'Its place (0-based) among its siblings; a new or moved one goes last unless placed.' })), availabilityWindows: Type.Optional(AvailabilityWindows) };
const changes = { ...Type.Partial(Type.Object(fields)).properties };
/** A sort order past every sibling: placed last, then numbered by `placeAmongSiblings`. */
const LAST = 2147483647;

/** A menu body as columns: the name trimmed, an empty Arabic name null, the windows checked; a new (or moved) row goes last unless placed. */
function menuColumns(body: Record<string, unknown>, create: boolean, goesLast = create) {
  const values: Record<string, unknown> = { ...body };
  if (typeof body.name === 'string') values.name = body.name.trim();
  if (body.nameAr !== undefined || create) values.nameAr = arabicOrNull(String(body.nameAr ?? ''));
  if (body.availabilityWindows !== undefined) values.availabilityWindows = checkWindows(body.availabilityWindows as Parameters<typeof checkWindows>[0]);
  if (body.sortOrder === undefined && goesLast) values.sortOrder = LAST;
  return values;
}

/** Puts a row written with a new sort order (or parent) in its place among its siblings; answers the row as it now is. */
async function placed<R extends { id: number; sortOrder: number }>(tx: Tx, what: 'type' | 'subtype', parentId: number, before: R | null, after: R | null) {
  if (!after || (before && before.sortOrder === after.sortOrder)) return;
  await placeAmongSiblings(tx, what, parentId, after.id, after.sortOrder);
  const table = what === 'type' ? productTypes : productSubtypes;
  const [row] = await tx.select().from(table).where(eq(table.id, after.id));
  return row as unknown as R;
}

const menu = { view: 'menu.manage', create: 'menu.manage', update: 'menu.manage', delete: 'menu.manage' } as const;

export const productTypeResource = defineResource({
  service: 'ProductType', mount: 'ProductTypesAndSubtypes', label: 'Product type',
  table: productTypes,
  item: MenuProductType,
  create: Obj('MenuProductTypeCreateInput', { brandId: Id, ...fields }),
  update: Obj('MenuProductTypeUpdateInput', { id: Id, ...changes }),
  scope: { level: 'brand', field: 'brandId' },
  can: menu,
  methods: { create: 'CreateProductType', update: 'UpdateProductType', delete: 'DeleteProductType?productTypeId' },
  sortable: ['sortOrder', 'name'], defaultSorting: 'sortOrder asc',
  toColumns: (body, before) => menuColumns(body, !before),
  check: async (tx, next, before) => {
    if (!before || next.name !== before.name) await checkUniqueName(tx, 'type', Number(next.brandId), String(next.name), before?.id ?? null);
  },
  afterWrite: (tx, { before, after }) => placed(tx, 'type', after?.brandId ?? 0, before, after),
  archive: {
    column: 'archivedAt',
    refuse: async (tx, type) => {
      const [{ n: subs }] = await tx.select({ n: count() }).from(productSubtypes).where(and(eq(productSubtypes.typeId, type.id), isNull(productSubtypes.archivedAt)));
      const [{ n: groups }] = await tx.select({ n: count() }).from(optionGroups).where(and(eq(optionGroups.productTypeId, type.id), isNull(optionGroups.productId)));
      if (Number(subs) || Number(groups)) {
        throw conflict(`The product type "${type.name}" still has ${Number(subs)} sub-type(s) and ${Number(groups)} addition group(s): delete or move them first.`);
      }
    },
  },
});

export const productSubTypeResource = defineResource({
  service: 'ProductSubType', mount: 'ProductTypesAndSubtypes', label: 'Product sub-type',
  table: productSubtypes,
  item: MenuProductSubType,
  create: Obj('MenuProductSubTypeCreateInput', { typeId: Id, ...fields }),
  update: Obj('MenuProductSubTypeUpdateInput', { id: Id, typeId: Type.Optional(Type.Integer({ ...Id, description: 'Moves it to another type of the same brand.' })), ...changes }),
  scope: { level: 'brand', field: 'typeId', via: { table: productTypes, column: productTypes.brandId, label: 'Product type', live: isNull(productTypes.archivedAt) } },
  can: menu,
  methods: { create: 'CreateProductSubType', update: 'UpdateProductSubType', delete: 'DeleteProductSubType?productSubTypeId' },
  sortable: ['sortOrder', 'name'], defaultSorting: 'sortOrder asc',
  toColumns: (body, before) => menuColumns(body, !before, !before || (body.typeId !== undefined && body.typeId !== before.typeId)),
  check: async (tx, next, before) => {
    if (!before || next.name !== before.name || next.typeId !== before.typeId) await checkUniqueName(tx, 'subtype', Number(next.typeId), String(next.name), before?.id ?? null);
  },
  afterWrite: (tx, { before, after }) => placed(tx, 'subtype', after?.typeId ?? 0, before && after && before.typeId !== after.typeId ? null : before, after),
  archive: {
    column: 'archivedAt',
    refuse: async (tx, subtype) => {
      const [{ n }] = await tx.select({ n: count() }).from(products).where(and(eq(products.subtypeId, subtype.id), isNull(products.archivedAt)));
      if (Number(n)) throw conflict(`The sub-type "${subtype.name}" still has ${Number(n)} product(s): delete or move them first.`);
    },
  },
});
