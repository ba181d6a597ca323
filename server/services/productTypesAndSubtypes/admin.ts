import { Type } from 'typebox';
import { and, asc, count, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { branchHiddenOptions, optionGroups, optionItems, productAdditionGroups, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, conflict, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { ArabicName, arabicOrNull } from '../../http/language';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { moneyDecimal } from '../../../domain/money';
import { menuProductOf, MenuProduct } from '../products/admin';
import { switchStillOn } from './menu';
import {
  auditMenu, branchBrandInScope, brandInScope, checkPrice, checkUniqueName, groupInScope, groupsWithItems, Id, insertGroup,
  MenuOptionGroup, MenuSubItem, Name, OptionGroupInput, placeAmongSiblings, type SubItemInputT, writeSubItems, Price, productInScope, SortOrder, subItemInScope, subItemOf, subtypeInScope,
  typeInScope, type OptionGroupInputT, arabicNameValue, AvailabilityWindows, checkWindows
} from './menuAdmin';

export const MenuProductType = Obj('MenuProductType', {
  id: Type.Integer(), brandId: Type.Integer(), name: Type.String(), nameAr: Nullable(Type.String()), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
  availabilityWindows: AvailabilityWindows,
});
export const MenuProductSubType = Obj('MenuProductSubType', {
  id: Type.Integer(), typeId: Type.Integer(), name: Type.String(), nameAr: Nullable(Type.String()), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
  availabilityWindows: AvailabilityWindows,
});
const MenuTypeWithSubtypes = Obj('MenuProductTypeWithSubtypes', { ...MenuProductType.properties, subtypes: Type.Array(MenuProductSubType) });

/** A sub-item as one branch offers it (/MenuManagement). */
const MenuSwitchSubItem = Obj('MenuSwitchSubItem', {
  id: Type.Integer(), name: Type.String(), price: Type.Number(), isHidden: Type.Boolean(),
  /** Not switched off at the branch. */
  available: Type.Boolean(),
  /** When a sold-out item comes back by itself (ISO time); null otherwise. */
  unavailableUntil: Nullable(Type.String()),
});
export const MenuSwitchGroup = Obj('MenuSwitchGroup', {
  id: Type.Integer(), name: Type.String(), productId: Nullable(Type.Integer()), productTypeId: Nullable(Type.Integer()),
  subItems: Type.Array(MenuSwitchSubItem),
});

type TypeRow = typeof productTypes.$inferSelect;
type SubtypeRow = typeof productSubtypes.$inferSelect;
const typeItem = (t: TypeRow) => ({ id: t.id, brandId: t.brandId, name: t.name, nameAr: t.nameAr, isHidden: t.isHidden, sortOrder: t.sortOrder, availabilityWindows: t.availabilityWindows });
const subtypeItem = (s: SubtypeRow) => ({ id: s.id, typeId: s.typeId, name: s.name, nameAr: s.nameAr, isHidden: s.isHidden, sortOrder: s.sortOrder, availabilityWindows: s.availabilityWindows });
const only = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Groups (with sub-items) as a branch offers them: each sub-item says whether it is switched off there, and until when. */
export async function switchGroups(db: Db | Tx, branchId: number, where: ReturnType<typeof eq>) {
  const groups = await groupsWithItems(db, where);
  const ids = groups.flatMap((g) => g.subItems.map((s) => s.id));
  const off = new Map(ids.length ? (await db.select({ id: branchHiddenOptions.optionItemId, until: branchHiddenOptions.unavailableUntil }).from(branchHiddenOptions)
    .where(and(eq(branchHiddenOptions.branchId, branchId), inArray(branchHiddenOptions.optionItemId, ids), switchStillOn(branchHiddenOptions.unavailableUntil))))
    .map((r) => [r.id, r.until] as const) : []);
  return groups.map((g) => ({
    id: g.id, name: g.name, productId: g.productId, productTypeId: g.productTypeId,
    subItems: g.subItems.map((s) => ({
      id: s.id, name: s.name, price: s.price, isHidden: s.isHidden,
      available: !off.has(s.id), unavailableUntil: off.get(s.id) ? new Date(off.get(s.id)!).toISOString() : null,
    })),
  }));
}

/** A group as the admin calls answer it, read after a write. */
const groupItem = async (db: Db | Tx, id: number) => (await groupsWithItems(db, eq(optionGroups.id, id)))[0];

/** Creates an option group ("product item") of a product, or an addition group of a product type. */
export async function createGroup(ctx: AppContext, caller: Caller, owner: { productId: number } | { productTypeId: number }, g: OptionGroupInputT, resource: string) {
  g.subItems.forEach((s, i) => checkPrice(s.price, `subItems[${i}].price`));
  return ctx.db.transaction(async (tx) => {
    const parent = 'productId' in owner
      ? { brandId: (await productInScope(tx, caller, owner.productId, { lock: true })).brandId, productId: owner.productId }
      : { brandId: (await typeInScope(tx, caller, owner.productTypeId, { lock: true })).brandId, productTypeId: owner.productTypeId };
    const where = 'productId' in owner ? eq(optionGroups.productId, owner.productId) : and(eq(optionGroups.productTypeId, owner.productTypeId), isNull(optionGroups.productId));
    const [{ n }] = await tx.select({ n: count() }).from(optionGroups).where(where);
    const group = await insertGroup(tx, parent, g, Number(n), 'subItems');
    const item = await groupItem(tx, group.id);
    await auditMenu(tx, caller, resource, 'create', group.id, parent.brandId, null, item);
    return item;
  });
}

/**
 * Changes a group's fields; with `subItems`, also its items as a whole (kept by id and changed,
 * added without one, the rest removed, in the order sent), so a form saves a group in one step
 * and one history entry.
 */
export async function updateGroup(ctx: AppContext, caller: Caller, kind: 'product' | 'addition', input: { id: number; name?: string; nameAr?: string; allowMultiple?: boolean; isRequired?: boolean; sortOrder?: number; subItems?: SubItemInputT[] }, resource: string, field = 'subItems') {
  input.subItems?.forEach((s, i) => checkPrice(s.price, `${field}[${i}].price`));
  return ctx.db.transaction(async (tx) => {
    const before = await groupInScope(tx, caller, input.id, kind);
    const beforeItem = await groupItem(tx, before.id);
    const values = { ...only({ name: input.name?.trim(), allowMultiple: input.allowMultiple, isRequired: input.isRequired, sortOrder: input.sortOrder }), ...arabicNameValue(input.nameAr) };
    if (Object.keys(values).length) await tx.update(optionGroups).set(values).where(eq(optionGroups.id, before.id));
    if (input.subItems) await writeSubItems(tx, before.id, input.subItems, field);
    const item = await groupItem(tx, before.id);
    if (JSON.stringify(item) !== JSON.stringify(beforeItem)) await auditMenu(tx, caller, resource, 'update', before.id, before.brandId, beforeItem, item);
    return item;
  });
}

/** Removes a group and its sub-items: order lines keep copies of the options they sold, so nothing else refers to them. */
export async function deleteGroup(ctx: AppContext, caller: Caller, kind: 'product' | 'addition', id: number, resource: string) {
  await ctx.db.transaction(async (tx) => {
    const before = await groupInScope(tx, caller, id, kind);
    const beforeItem = await groupItem(tx, id);
    await tx.delete(optionGroups).where(eq(optionGroups.id, id));
    await auditMenu(tx, caller, resource, 'delete', id, before.brandId, beforeItem, null);
  });
  return true as const;
}

export async function createSubItems(ctx: AppContext, caller: Caller, kind: 'product' | 'addition', groupId: number, subItems: { name: string; nameAr?: string; price: number; isHidden?: boolean }[], resource: string) {
  subItems.forEach((s, i) => checkPrice(s.price, subItems.length > 1 ? `additions[${i}].price` : 'price'));
  return ctx.db.transaction(async (tx) => {
    const group = await groupInScope(tx, caller, groupId, kind);
    const [{ n }] = await tx.select({ n: count() }).from(optionItems).where(eq(optionItems.groupId, groupId));
    const rows = await tx.insert(optionItems).values(subItems.map((s, i) => ({
      groupId, name: s.name.trim(), ...arabicNameValue(s.nameAr), price: moneyDecimal(s.price), isHidden: s.isHidden ?? false, sortOrder: Number(n) + i,
    }))).returning();
    for (const row of rows) await auditMenu(tx, caller, resource, 'create', row.id, group.brandId, null, subItemOf(row));
    return rows.map(subItemOf);
  });
}

export async function updateSubItem(ctx: AppContext, caller: Caller, kind: 'product' | 'addition', input: { id: number; name?: string; nameAr?: string; price?: number; isHidden?: boolean; sortOrder?: number }, resource: string) {
  checkPrice(input.price, 'price');
  return ctx.db.transaction(async (tx) => {
    const before = await subItemInScope(tx, caller, input.id, kind);
    const values = { ...only({ name: input.name?.trim(), price: input.price === undefined ? undefined : moneyDecimal(input.price), isHidden: input.isHidden, sortOrder: input.sortOrder }), ...arabicNameValue(input.nameAr) };
    const [after] = Object.keys(values).length ? await tx.update(optionItems).set(values).where(eq(optionItems.id, before.id)).returning() : [before];
    const [group] = await tx.select({ brandId: optionGroups.brandId }).from(optionGroups).where(eq(optionGroups.id, after.groupId));
    if (JSON.stringify(subItemOf(after)) !== JSON.stringify(subItemOf(before))) await auditMenu(tx, caller, resource, 'update', after.id, group.brandId, subItemOf(before), subItemOf(after));
    return subItemOf(after);
  });
}

/** Removes a sub-item; a group keeps at least one (an empty group could never be chosen): delete the group instead. */
export async function deleteSubItem(ctx: AppContext, caller: Caller, kind: 'product' | 'addition', id: number, resource: string) {
  await ctx.db.transaction(async (tx) => {
    const before = await subItemInScope(tx, caller, id, kind);
    const [group] = await tx.select().from(optionGroups).where(eq(optionGroups.id, before.groupId)).for('update');
    const [{ n }] = await tx.select({ n: count() }).from(optionItems).where(eq(optionItems.groupId, before.groupId));
    if (Number(n) <= 1) throw badRequest(`"${before.name}" is the last item of "${group.name}": a group keeps at least one item. Delete the group instead.`);
    await tx.delete(optionItems).where(eq(optionItems.id, id));
    await auditMenu(tx, caller, resource, 'delete', id, group.brandId, subItemOf(before), null);
  });
  return true as const;
}

/**
 * Deletes a product type or sub-type. One that still holds products (or sub-types, or addition
 * groups) is refused with a 409 that says what to do: removing a whole branch of the menu by
 * accident is worse than one more click. An empty one is archived, not removed, since deleted
 * products that orders point at may still name it.
 */
async function archiveType(ctx: AppContext, caller: Caller, id: number) {
  await ctx.db.transaction(async (tx) => {
    const before = await typeInScope(tx, caller, id, { lock: true });
    const [{ n: subs }] = await tx.select({ n: count() }).from(productSubtypes).where(and(eq(productSubtypes.typeId, id), isNull(productSubtypes.archivedAt)));
    const [{ n: groups }] = await tx.select({ n: count() }).from(optionGroups).where(and(eq(optionGroups.productTypeId, id), isNull(optionGroups.productId)));
    if (Number(subs) || Number(groups)) {
      throw conflict(`The product type "${before.name}" still has ${Number(subs)} sub-type(s) and ${Number(groups)} addition group(s): delete or move them first.`);
    }
    await tx.update(productTypes).set({ archivedAt: new Date() }).where(eq(productTypes.id, id));
    await auditMenu(tx, caller, 'ProductType', 'delete', id, before.brandId, typeItem(before), null);
  });
  return true as const;
}

async function archiveSubtype(ctx: AppContext, caller: Caller, id: number) {
  await ctx.db.transaction(async (tx) => {
    const { subtype, brandId } = await subtypeInScope(tx, caller, id, { lock: true });
    const [{ n }] = await tx.select({ n: count() }).from(products).where(and(eq(products.subtypeId, id), isNull(products.archivedAt)));
    if (Number(n)) throw conflict(`The sub-type "${subtype.name}" still has ${Number(n)} product(s): delete or move them first.`);
    await tx.update(productSubtypes).set({ archivedAt: new Date() }).where(eq(productSubtypes.id, id));
    await auditMenu(tx, caller, 'ProductSubType', 'delete', id, brandId, subtypeItem(subtype), null);
  });
  return true as const;
}

/** The product types of a brand with their sub-types (live ones; hidden ones with their flag). */
export async function typesWithSubtypes(db: Db | Tx, brandId: number) {
  const types = await db.select().from(productTypes).where(and(eq(productTypes.brandId, brandId), isNull(productTypes.archivedAt)))
    .orderBy(asc(productTypes.sortOrder), asc(productTypes.id));
  const subs = types.length ? await db.select().from(productSubtypes)
    .where(and(inArray(productSubtypes.typeId, types.map((t) => t.id)), isNull(productSubtypes.archivedAt)))
    .orderBy(asc(productSubtypes.sortOrder), asc(productSubtypes.id)) : [];
  return types.map((t) => ({ ...typeItem(t), subtypes: subs.filter((s) => s.typeId === t.id).map(subtypeItem) }));
}

const typeFields = { name: Name, nameAr: Type.Optional(ArabicName), isHidden: Type.Boolean(), sortOrder: SortOrder, availabilityWindows: AvailabilityWindows };
/** The windows sent, checked (a 400 writes nothing), as a column value; absent: left as they are. */
const windowsValue = (windows: Parameters<typeof checkWindows>[0] | undefined) => (windows === undefined ? {} : { availabilityWindows: checkWindows(windows) });
const SubItemFields = { name: Name, price: Price, isHidden: Type.Boolean(), sortOrder: SortOrder };

/** SPEC.md 7 Menu management, ProductTypesAndSubtypes (the admin calls; the shop's is shop.ts). */
export function registerProductTypesAndSubtypesAdmin(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'ProductTypesAndSubtypes', [
    route({
      method: 'GET', name: 'GetProductTypeWithSubtypesDictionary', access: 'menu.manage',
      summary: "A brand's product types with their sub-types (the pickers of the product form).",
      query: Obj('MenuTypesQuery', { brandId: Id }), result: Type.Array(MenuTypeWithSubtypes),
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.brandId);
        return typesWithSubtypes(ctx.db, query.brandId);
      },
    }),
    route({
      method: 'POST', name: 'CreateProductType', access: 'menu.manage', summary: 'Creates a product type of a brand.',
      body: Obj('MenuProductTypeCreateInput', { brandId: Id, ...typeFields, isHidden: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder), availabilityWindows: Type.Optional(AvailabilityWindows) }),
      result: MenuProductType,
      async handler({ body, caller, ctx }) {
        await brandInScope(ctx.db, caller, body.brandId);
        return ctx.db.transaction(async (tx) => {
          await checkUniqueName(tx, 'type', body.brandId, body.name, null);
          const [inserted] = await tx.insert(productTypes).values({ brandId: body.brandId, name: body.name.trim(), nameAr: arabicOrNull(body.nameAr ?? ''), isHidden: body.isHidden ?? false, ...windowsValue(body.availabilityWindows) }).returning();
          const row = { ...inserted, sortOrder: await placeAmongSiblings(tx, 'type', body.brandId, inserted.id, body.sortOrder ?? 'last') };
          await auditMenu(tx, caller, 'ProductType', 'create', row.id, row.brandId, null, typeItem(row));
          return typeItem(row);
        });
      },
    }),
    route({
      method: 'PUT', name: 'UpdateProductType', access: 'menu.manage', summary: 'Renames, hides or shows (with everything in it), or reorders a product type: only the fields sent. `sortOrder` is its new place (0-based) among the brand\'s types.',
      body: Obj('MenuProductTypeUpdateInput', { id: Id, ...Type.Partial(Type.Object(typeFields)).properties }), result: MenuProductType,
      handler: ({ body, caller, ctx }) => ctx.db.transaction(async (tx) => {
        const before = await typeInScope(tx, caller, body.id, { lock: true });
        if (body.name !== undefined) await checkUniqueName(tx, 'type', before.brandId, body.name, before.id);
        const values = { ...only({ name: body.name?.trim(), nameAr: body.nameAr === undefined ? undefined : arabicOrNull(body.nameAr), isHidden: body.isHidden }), ...windowsValue(body.availabilityWindows) };
        if (Object.keys(values).length) await tx.update(productTypes).set(values).where(eq(productTypes.id, before.id));
        if (body.sortOrder !== undefined) await placeAmongSiblings(tx, 'type', before.brandId, before.id, body.sortOrder);
        const [after] = await tx.select().from(productTypes).where(eq(productTypes.id, before.id));
        if (JSON.stringify(typeItem(after)) !== JSON.stringify(typeItem(before))) await auditMenu(tx, caller, 'ProductType', 'update', after.id, after.brandId, typeItem(before), typeItem(after));
        return typeItem(after);
      }),
    }),
    route({
      method: 'DELETE', name: 'DeleteProductType', access: 'menu.manage', summary: 'Deletes an empty product type (one with sub-types or addition groups is a 409).',
      query: Obj('MenuProductTypeDeleteQuery', { productTypeId: Id }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => archiveType(ctx, caller, query.productTypeId),
    }),
    route({
      method: 'POST', name: 'CreateProductSubType', access: 'menu.manage', summary: 'Creates a sub-type of a product type.',
      body: Obj('MenuProductSubTypeCreateInput', { typeId: Id, ...typeFields, isHidden: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder), availabilityWindows: Type.Optional(AvailabilityWindows) }),
      result: MenuProductSubType,
      handler: ({ body, caller, ctx }) => ctx.db.transaction(async (tx) => {
        const type = await typeInScope(tx, caller, body.typeId, { lock: true });
        await checkUniqueName(tx, 'subtype', type.id, body.name, null);
        const [inserted] = await tx.insert(productSubtypes).values({ typeId: type.id, name: body.name.trim(), nameAr: arabicOrNull(body.nameAr ?? ''), isHidden: body.isHidden ?? false, ...windowsValue(body.availabilityWindows) }).returning();
        const row = { ...inserted, sortOrder: await placeAmongSiblings(tx, 'subtype', type.id, inserted.id, body.sortOrder ?? 'last') };
        await auditMenu(tx, caller, 'ProductSubType', 'create', row.id, type.brandId, null, subtypeItem(row));
        return subtypeItem(row);
      }),
    }),
    route({
      method: 'PUT', name: 'UpdateProductSubType', access: 'menu.manage', summary: 'Renames, hides or shows, reorders or moves (within the brand) a sub-type: only the fields sent. `sortOrder` is its new place (0-based) among the type\'s sub-types; moved to another type, it goes last unless a place is given.',
      body: Obj('MenuProductSubTypeUpdateInput', { id: Id, typeId: Type.Optional(Id), ...Type.Partial(Type.Object(typeFields)).properties }), result: MenuProductSubType,
      handler: ({ body, caller, ctx }) => ctx.db.transaction(async (tx) => {
        const { subtype: before, brandId } = await subtypeInScope(tx, caller, body.id, { lock: true });
        if (body.typeId !== undefined && body.typeId !== before.typeId && (await typeInScope(tx, caller, body.typeId)).brandId !== brandId) throw notFound('Product type');
        const typeId = body.typeId ?? before.typeId;
        if (body.name !== undefined || typeId !== before.typeId) await checkUniqueName(tx, 'subtype', typeId, body.name ?? before.name, before.id);
        const values = { ...only({ name: body.name?.trim(), nameAr: body.nameAr === undefined ? undefined : arabicOrNull(body.nameAr), isHidden: body.isHidden, typeId: body.typeId }), ...windowsValue(body.availabilityWindows) };
        if (Object.keys(values).length) await tx.update(productSubtypes).set(values).where(eq(productSubtypes.id, before.id));
        // A sub-type moved to another type goes last there unless a place is given.
        const position = body.sortOrder ?? (typeId !== before.typeId ? 'last' : undefined);
        if (position !== undefined) await placeAmongSiblings(tx, 'subtype', typeId, before.id, position);
        const [after] = await tx.select().from(productSubtypes).where(eq(productSubtypes.id, before.id));
        if (JSON.stringify(subtypeItem(after)) !== JSON.stringify(subtypeItem(before))) await auditMenu(tx, caller, 'ProductSubType', 'update', after.id, brandId, subtypeItem(before), subtypeItem(after));
        return subtypeItem(after);
      }),
    }),
    route({
      method: 'DELETE', name: 'DeleteProductSubType', access: 'menu.manage', summary: 'Deletes an empty sub-type (one with products is a 409).',
      query: Obj('MenuProductSubTypeDeleteQuery', { productSubTypeId: Id }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => archiveSubtype(ctx, caller, query.productSubTypeId),
    }),
    route({
      method: 'GET', name: 'GetProductItemWithSubItemDictionary', access: 'menu.manage',
      summary: 'A product as the product form reads it: its fields, its items (option groups) with their sub-items, and the addition groups that apply.',
      query: Obj('MenuProductQuery', { productId: Id }), result: MenuProduct,
      handler: async ({ query, caller, ctx }) => (await menuProductOf(ctx.db, await productInScope(ctx.db, caller, query.productId))) as never,
    }),
    route({
      method: 'GET', name: 'GetProductItemWithSubItemDictionaryHideUnHide', access: 'menuManagement.manage',
      summary: "Sub-items as one branch offers them (/MenuManagement): a product's items and its addition groups with productId, else every addition group of the branch's brand; each sub-item says whether it is switched off there, and until when.",
      query: Obj('MenuBranchItemsQuery', { branchId: Id, productId: Type.Optional(Id) }), result: Type.Array(MenuSwitchGroup),
      async handler({ query, caller, ctx }) {
        const brandId = await branchBrandInScope(ctx.db, caller, query.branchId);
        if (query.productId === undefined) return switchGroups(ctx.db, query.branchId, and(eq(optionGroups.brandId, brandId), isNull(optionGroups.productId)) as never);
        const [product] = await ctx.db.select({ id: products.id }).from(products)
          .where(and(eq(products.id, query.productId), eq(products.brandId, brandId), isNull(products.archivedAt)));
        if (!product) throw notFound('Product');
        const linked = ctx.db.select({ id: productAdditionGroups.groupId }).from(productAdditionGroups).where(eq(productAdditionGroups.productId, product.id));
        return switchGroups(ctx.db, query.branchId, or(eq(optionGroups.productId, product.id), inArray(optionGroups.id, linked)) as never);
      },
    }),
    route({
      method: 'POST', name: 'CreateProductItem', access: 'menu.manage', summary: 'Adds an option group (item) with its sub-items (at least one) to a product.',
      body: Obj('MenuProductItemCreateInput', { productId: Id, name: Name, allowMultiple: OptionGroupInput.properties.allowMultiple, isRequired: OptionGroupInput.properties.isRequired, subItems: OptionGroupInput.properties.subItems }),
      result: MenuOptionGroup,
      handler: ({ body, caller, ctx }) => createGroup(ctx, caller, { productId: body.productId }, body as OptionGroupInputT, 'ProductItem') as never,
    }),
    route({
      method: 'PUT', name: 'UpdateProductitem', access: 'menu.manage', summary: "Changes an option group's name, allowMultiple, isRequired or order: only the fields sent.",
      body: Obj('MenuProductItemUpdateInput', { id: Id, name: Type.Optional(Name), allowMultiple: Type.Optional(Type.Boolean()), isRequired: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder) }),
      result: MenuOptionGroup,
      handler: ({ body, caller, ctx }) => updateGroup(ctx, caller, 'product', body, 'ProductItem') as never,
    }),
    route({
      method: 'DELETE', name: 'DeleteItems', access: 'menu.manage', summary: 'Deletes an option group of a product with its sub-items.',
      query: Obj('MenuProductItemDeleteQuery', { itemId: Id }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => deleteGroup(ctx, caller, 'product', query.itemId, 'ProductItem'),
    }),
    route({
      method: 'POST', name: 'CreateProductSubItem', access: 'menu.manage', summary: 'Adds a sub-item (an option with its price) to an option group.',
      body: Obj('MenuProductSubItemCreateInput', { itemId: Id, name: Name, price: Price, isHidden: Type.Optional(Type.Boolean()) }), result: MenuSubItem,
      handler: async ({ body, caller, ctx }) => (await createSubItems(ctx, caller, 'product', body.itemId, [body], 'ProductSubItem'))[0],
    }),
    route({
      method: 'PUT', name: 'UpdateProductsubitem', access: 'menu.manage', summary: "Changes a sub-item's name, price, hidden flag or order: only the fields sent.",
      body: Obj('MenuProductSubItemUpdateInput', { id: Id, ...Type.Partial(Type.Object(SubItemFields)).properties }), result: MenuSubItem,
      handler: ({ body, caller, ctx }) => updateSubItem(ctx, caller, 'product', body, 'ProductSubItem'),
    }),
    route({
      method: 'DELETE', name: 'DeleteISubItem', access: 'menu.manage', summary: 'Deletes a sub-item (the last one of a group is a 400: delete the group).',
      query: Obj('MenuProductSubItemDeleteQuery', { subItemId: Id }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => deleteSubItem(ctx, caller, 'product', query.subItemId, 'ProductSubItem'),
    }),
  ]);
}
