import { Type } from 'typebox';
import { and, asc, count, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { branchHiddenOptions, optionGroups, optionItems, productAdditionGroups, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { FastifyInstance } from 'fastify';
import type { AppContext, Caller } from '../../http/context';
import { moneyDecimal } from '../../../domain/money';
import { menuProductOf, MenuProduct } from '../products/admin';
import { switchStillOn } from './menu';
import { MenuProductSubType, MenuProductType, productSubTypeResource, productTypeResource } from './resource';
import {
  auditMenu, branchBrandInScope, brandInScope, checkPrice, groupInScope, groupsWithItems, Id, insertGroup,
  MenuOptionGroup, MenuSubItem, Name, OptionGroupInput, type SubItemInputT, writeSubItems, Price, productInScope, SortOrder, subItemInScope, subItemOf,
  typeInScope, type OptionGroupInputT, arabicNameValue
} from './menuAdmin';

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

/** The product types of a brand with their sub-types (live ones; hidden ones with their flag). */
export async function typesWithSubtypes(db: Db | Tx, brandId: number) {
  const types = await db.select().from(productTypes).where(and(eq(productTypes.brandId, brandId), isNull(productTypes.archivedAt)))
    .orderBy(asc(productTypes.sortOrder), asc(productTypes.id));
  const subs = types.length ? await db.select().from(productSubtypes)
    .where(and(inArray(productSubtypes.typeId, types.map((t) => t.id)), isNull(productSubtypes.archivedAt)))
    .orderBy(asc(productSubtypes.sortOrder), asc(productSubtypes.id)) : [];
  return types.map((t) => ({ ...productTypeResource.toItem(t), subtypes: subs.filter((s) => s.typeId === t.id).map(productSubTypeResource.toItem) }));
}

const SubItemFields = { name: Name, price: Price, isHidden: Type.Boolean(), sortOrder: SortOrder };

/**
 * SPEC.md 7 Menu management, ProductTypesAndSubtypes: the service's calls besides its declared types
 * and sub-types (resource.ts, mounted under the same service). Not CRUD of one table: the product form's
 * dictionary is a tree (types with their sub-types), an option group is written with its sub-items
 * as a whole, and the branch's view joins its switches. The shop's calls are shop.ts.
 */
export function registerProductTypesAndSubtypesCalls(app: FastifyInstance, ctx: AppContext) {
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
