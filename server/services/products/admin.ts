import { Type } from 'typebox';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { branchHiddenProducts, optionGroups, productAdditionGroups, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { moneyDecimal } from '../../../domain/money';
import { releaseImage } from '../files/references';
import { switchStillOn } from '../productTypesAndSubtypes/menu';
import { MenuProductSubType, MenuProductType, productSubTypeResource, productTypeResource } from '../productTypesAndSubtypes/resource';
import { productColumns, productInputFields, productItemFields, productValues, treeProductFields, treeProductValues, type ProductFieldInput } from './resource';
import {
  additionGroupIdsOf, auditMenu, branchBrandInScope, brandInScope, checkGroups, checkPrice, checkUniqueName, groupsWithItems, Id,
  insertGroup, MenuOptionGroup, Name, nameTaken, OptionGroupInput, placeAmongSiblings, Price, productInScope, SortOrder, subtypeInScope, writeSubItems,
  type OptionGroupInputT, arabicNameValue
} from '../productTypesAndSubtypes/menuAdmin';

type ProductRow = typeof products.$inferSelect;
const IMAGE_FIELDS = ['productImage', 'productSecondImage', 'productThirdImage'] as const;
type ImageField = (typeof IMAGE_FIELDS)[number];

/** An image URL as the Files service answers it (root-relative) or an outside https link. */
const ImageUrl = Type.String({ maxLength: 500, pattern: '^(/[^/]|https://)', description: 'The `url` answered by Files/UploadProductImage, or an https link.' });

export const MenuProduct = Obj('MenuProduct', {
  id: Type.Integer(), brandId: Type.Integer(), typeId: Type.Integer(), subtypeId: Type.Integer(),
  ...productItemFields,
  productImage: Nullable(Type.String()), productSecondImage: Nullable(Type.String()), productThirdImage: Nullable(Type.String()),
  sortOrder: Type.Integer(),
  /** The product's own option groups ("items") with their sub-items. */
  optionGroups: Type.Array(MenuOptionGroup),
  /** The addition groups that apply to it (ProductAddition). */
  additionGroupIds: Type.Array(Type.Integer()),
});
type MenuProductItem = Omit<ProductRow, 'price' | 'archivedAt'> & { typeId: number; price: number; optionGroups: Awaited<ReturnType<typeof groupsWithItems>>; additionGroupIds: number[] };

/** A product in the menu trees: its declaration's fields flagged `tree`, then the tree's own. */
const MenuProductSummary = Obj('MenuProductSummary', {
  id: Type.Integer(), ...treeProductFields, productImage: Nullable(Type.String()), sortOrder: Type.Integer(),
  /** At the branch asked for (the HideUnHide tree): not switched off; always true in the plain tree. */
  available: Type.Boolean(),
  /** At the branch: when a sold-out product comes back by itself (ISO time); null otherwise. */
  unavailableUntil: Nullable(Type.String()),
});
const MenuSubtype = Obj('MenuSubtype', {
  ...MenuProductSubType.properties,
  products: Type.Array(MenuProductSummary),
});
export const MenuType = Obj('MenuType', {
  ...MenuProductType.properties,
  subtypes: Type.Array(MenuSubtype),
});

/** The product's other fields (its plain ones are its declaration's, ./resource.ts). */
const productFields = {
  sortOrder: SortOrder,
  productImage: Nullable(ImageUrl), productSecondImage: Nullable(ImageUrl), productThirdImage: Nullable(ImageUrl),
  /** The images in order, at most three: an alternative to the three fields (not both). */
  images: Type.Array(ImageUrl, { maxItems: 3 }),
  /** The product's own option groups, the whole set: groups and sub-items with an id are kept, others added, the rest removed. */
  optionGroups: Type.Array(OptionGroupInput, { maxItems: 30 }),
  /** The addition groups that apply, the whole set. */
  additionGroupIds: Type.Array(Id, { maxItems: 30 }),
};
const CreateBody = Obj('MenuProductCreateInput', {
  subtypeId: Id,
  brandId: Type.Optional(Id),
  ...productInputFields,
  ...Type.Partial(Type.Object(productFields)).properties,
  name: Name, price: Price,
});
const UpdateBody = Obj('MenuProductUpdateInput', { id: Id, subtypeId: Type.Optional(Id), ...productInputFields, ...Type.Partial(Type.Object(productFields)).properties });
type ProductInput = ProductFieldInput & Partial<{
  subtypeId: number; brandId: number; name: string; price: number;
  sortOrder: number; productImage: string | null; productSecondImage: string | null; productThirdImage: string | null;
  images: string[]; optionGroups: OptionGroupInputT[]; additionGroupIds: number[];
}>;

/** The product as the form reads it: its fields, its own groups with sub-items, its addition groups. */
export async function menuProductOf(db: Db | Tx, row: ProductRow): Promise<MenuProductItem> {
  const [sub] = await db.select({ typeId: productSubtypes.typeId }).from(productSubtypes).where(eq(productSubtypes.id, row.subtypeId));
  const { archivedAt: _archived, ...fields } = row;
  return {
    ...fields, ...productValues(row), typeId: sub.typeId, price: Number(row.price),
    optionGroups: await groupsWithItems(db, eq(optionGroups.productId, row.id)),
    additionGroupIds: await additionGroupIdsOf(db, row.id),
  };
}

/** The three image fields from `images` or the named fields; both at once is a 400. */
function imagesOf(input: ProductInput): Partial<Record<ImageField, string | null>> {
  if (input.images !== undefined) {
    if (IMAGE_FIELDS.some((f) => input[f] !== undefined)) throw badRequest('Send the images either as `images` or as productImage, productSecondImage and productThirdImage, not both.', [{ message: 'Send the images one way only.', members: ['images'] }]);
    return Object.fromEntries(IMAGE_FIELDS.map((f, i) => [f, input.images![i] ?? null]));
  }
  return Object.fromEntries(IMAGE_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]!]));
}

/** Addition groups must be addition groups of the product's brand: a 400 naming the field otherwise. */
async function checkAdditionGroups(db: Db | Tx, brandId: number, ids: number[] | undefined) {
  if (!ids?.length) return;
  const found = await db.select({ id: optionGroups.id }).from(optionGroups)
    .where(and(inArray(optionGroups.id, ids), eq(optionGroups.brandId, brandId), isNull(optionGroups.productId)));
  const missing = [...new Set(ids)].filter((id) => !found.some((f) => f.id === id));
  if (missing.length) {
    const message = `There is no addition group ${missing.join(', ')} of this brand.`;
    throw badRequest(message, [{ message, members: ['additionGroupIds'] }]);
  }
}

function checkInput(input: ProductInput) {
  checkPrice(input.price, 'price');
  checkGroups(input.optionGroups);
}

/** Writes the product's own groups as the form sent them (see `optionGroups`). */
async function writeGroups(tx: Tx, product: ProductRow, groups: OptionGroupInputT[]) {
  const existing = await tx.select({ id: optionGroups.id }).from(optionGroups).where(eq(optionGroups.productId, product.id));
  const known = new Set(existing.map((g) => g.id));
  const kept = new Set<number>();
  for (const [i, g] of groups.entries()) {
    const field = `optionGroups[${i}]`;
    if (g.id === undefined) {
      await insertGroup(tx, { brandId: product.brandId, productId: product.id }, g, i, field);
      continue;
    }
    if (!known.has(g.id) || kept.has(g.id)) throw badRequest(`Option group ${g.id} is not a group of this product.`, [{ message: 'Not a group of this product.', members: [`${field}.id`] }]);
    kept.add(g.id);
    await tx.update(optionGroups).set({ name: g.name.trim(), ...arabicNameValue(g.nameAr), allowMultiple: g.allowMultiple, isRequired: g.isRequired, sortOrder: i }).where(eq(optionGroups.id, g.id));
    await writeSubItems(tx, g.id, g.subItems, `${field}.subItems`);
  }
  const gone = [...known].filter((id) => !kept.has(id));
  if (gone.length) await tx.delete(optionGroups).where(inArray(optionGroups.id, gone));
}

async function writeAdditionLinks(tx: Tx, productId: number, ids: number[]) {
  await tx.delete(productAdditionGroups).where(eq(productAdditionGroups.productId, productId));
  const unique = [...new Set(ids)];
  if (unique.length) await tx.insert(productAdditionGroups).values(unique.map((groupId) => ({ productId, groupId })));
}

const columnsOf = (input: ProductInput) => ({
  ...productColumns(input),
  ...(input.subtypeId !== undefined && { subtypeId: input.subtypeId }),
  ...imagesOf(input),
});

/** Images a write stopped using: removed from the storage once no row refers to them (after the commit). */
const droppedImages = (before: ProductRow, after: ProductRow) =>
  IMAGE_FIELDS.map((f) => before[f]).filter((url): url is string => !!url && !IMAGE_FIELDS.some((f) => after[f] === url));

async function createProduct(ctx: AppContext, caller: Caller, input: ProductInput & { subtypeId: number; name: string; price: number }) {
  checkInput(input);
  imagesOf(input);
  return ctx.db.transaction(async (tx) => {
    const { brandId } = await subtypeInScope(tx, caller, input.subtypeId, { lock: true });
    if (input.brandId !== undefined && input.brandId !== brandId) throw badRequest('The sub-type belongs to another brand.', [{ message: 'The sub-type belongs to another brand.', members: ['brandId'] }]);
    await checkUniqueName(tx, 'product', input.subtypeId, input.name, null);
    await checkAdditionGroups(tx, brandId, input.additionGroupIds);
    const [inserted] = await tx.insert(products).values({ brandId, ...columnsOf(input), subtypeId: input.subtypeId, name: input.name.trim(), price: moneyDecimal(input.price) }).returning();
    const row = { ...inserted, sortOrder: await placeAmongSiblings(tx, 'product', input.subtypeId, inserted.id, input.sortOrder ?? 'last') };
    if (input.optionGroups) await writeGroups(tx, row, input.optionGroups);
    if (input.additionGroupIds) await writeAdditionLinks(tx, row.id, input.additionGroupIds);
    const item = await menuProductOf(tx, row);
    await auditMenu(tx, caller, 'Product', 'create', row.id, brandId, null, item);
    return item;
  });
}

async function updateProduct(ctx: AppContext, caller: Caller, input: ProductInput & { id: number }) {
  checkInput(input);
  imagesOf(input);
  const { item, dropped } = await ctx.db.transaction(async (tx) => {
    const before = await productInScope(tx, caller, input.id, { lock: true });
    const beforeItem = await menuProductOf(tx, before);
    // Moving to another sub-type: it must be one of the same brand, in scope.
    if (input.subtypeId !== undefined && input.subtypeId !== before.subtypeId) {
      const target = await subtypeInScope(tx, caller, input.subtypeId);
      if (target.brandId !== before.brandId) throw notFound('Product sub-type');
    }
    if (input.name !== undefined || input.subtypeId !== undefined) {
      await checkUniqueName(tx, 'product', input.subtypeId ?? before.subtypeId, input.name ?? before.name, before.id);
    }
    await checkAdditionGroups(tx, before.brandId, input.additionGroupIds);
    const values = columnsOf(input);
    if (Object.keys(values).length) await tx.update(products).set(values).where(eq(products.id, before.id));
    // `sortOrder` is the product's place among its sub-type's products; moved to another sub-type, it goes last there unless a place is given.
    const subtypeId = input.subtypeId ?? before.subtypeId;
    const position = input.sortOrder ?? (subtypeId !== before.subtypeId ? 'last' : undefined);
    if (position !== undefined) await placeAmongSiblings(tx, 'product', subtypeId, before.id, position);
    const [after] = await tx.select().from(products).where(eq(products.id, before.id));
    if (input.optionGroups) await writeGroups(tx, after, input.optionGroups);
    if (input.additionGroupIds) await writeAdditionLinks(tx, after.id, input.additionGroupIds);
    const item = await menuProductOf(tx, after);
    if (JSON.stringify(item) !== JSON.stringify(beforeItem)) await auditMenu(tx, caller, 'Product', 'update', after.id, after.brandId, beforeItem, item);
    return { item, dropped: droppedImages(before, after) };
  });
  for (const url of dropped) await releaseImage(ctx.db, ctx.storage, url);
  return item;
}

/**
 * Products/DeleteProduct: the product leaves the menu for good. It is archived, not removed,
 * because order lines point at it; they keep their own copies of its name, options and prices,
 * so no order, receipt or total changes (docs/decisions.md "Menu management").
 */
async function archiveProduct(ctx: AppContext, caller: Caller, id: number) {
  await ctx.db.transaction(async (tx) => {
    const before = await productInScope(tx, caller, id, { lock: true });
    const beforeItem = await menuProductOf(tx, before);
    await tx.update(products).set({ archivedAt: new Date(), isHidden: true }).where(eq(products.id, id));
    // Its switches and addition links mean nothing any more.
    await tx.delete(branchHiddenProducts).where(eq(branchHiddenProducts.productId, id));
    await tx.delete(productAdditionGroups).where(eq(productAdditionGroups.productId, id));
    await auditMenu(tx, caller, 'Product', 'delete', id, before.brandId, beforeItem, null);
  });
  return true as const;
}

async function deleteImage(ctx: AppContext, caller: Caller, id: number, field: ImageField) {
  const previous = await ctx.db.transaction(async (tx) => {
    const before = await productInScope(tx, caller, id, { lock: true });
    if (before[field] === null) return null;
    await tx.update(products).set({ [field]: null }).where(eq(products.id, id));
    await auditMenu(tx, caller, 'Product', 'update', id, before.brandId, { [field]: before[field] }, { [field]: null });
    return before[field];
  });
  await releaseImage(ctx.db, ctx.storage, previous);
  return true as const;
}

/** Products/DuplicateProduct: a copy in the same sub-type named "<name> (copy)", hidden until its owner shows it. */
async function duplicateProduct(ctx: AppContext, caller: Caller, id: number, name?: string) {
  return ctx.db.transaction(async (tx) => {
    const source = await productInScope(tx, caller, id, { lock: true });
    let copyName = name?.trim() || `${source.name} (copy)`;
    for (let n = 2; !name && (await nameTaken(tx, 'product', source.subtypeId, copyName, null)); n++) copyName = `${source.name} (copy ${n})`;
    await checkUniqueName(tx, 'product', source.subtypeId, copyName, null);
    const { id: _id, archivedAt: _a, ...fields } = source;
    const [row] = await tx.insert(products).values({ ...fields, name: copyName, isHidden: true }).returning();
    const groups = await groupsWithItems(tx, eq(optionGroups.productId, source.id));
    for (const [i, g] of groups.entries()) {
      await insertGroup(tx, { brandId: source.brandId, productId: row.id }, { ...g, nameAr: g.nameAr ?? undefined, subItems: g.subItems.map(({ name: n, nameAr, price, isHidden }) => ({ name: n, nameAr: nameAr ?? undefined, price, isHidden })) }, i, `optionGroups[${i}]`);
    }
    await writeAdditionLinks(tx, row.id, await additionGroupIdsOf(tx, source.id));
    const item = await menuProductOf(tx, row);
    await auditMenu(tx, caller, 'Product', 'create', row.id, row.brandId, null, item);
    return item;
  });
}

/**
 * The /store tree of a brand: types → sub-types → products, hidden ones included with their flag,
 * deleted ones left out. With a branch, each product also says whether it is switched off there.
 */
export async function menuTree(db: Db, brandId: number, branchId: number | null) {
  const types = await db.select().from(productTypes).where(and(eq(productTypes.brandId, brandId), isNull(productTypes.archivedAt)))
    .orderBy(asc(productTypes.sortOrder), asc(productTypes.id));
  const subtypes = types.length ? await db.select().from(productSubtypes)
    .where(and(inArray(productSubtypes.typeId, types.map((t) => t.id)), isNull(productSubtypes.archivedAt)))
    .orderBy(asc(productSubtypes.sortOrder), asc(productSubtypes.id)) : [];
  const rows = await db.select().from(products).where(and(eq(products.brandId, brandId), isNull(products.archivedAt)))
    .orderBy(asc(products.sortOrder), asc(products.id));
  const off = new Map(branchId === null ? [] : (await db.select({ id: branchHiddenProducts.productId, until: branchHiddenProducts.unavailableUntil })
    .from(branchHiddenProducts).where(and(eq(branchHiddenProducts.branchId, branchId), switchStillOn(branchHiddenProducts.unavailableUntil))))
    .map((r) => [r.id, r.until] as const));
  return types.map((t) => ({
    ...productTypeResource.toItem(t),
    subtypes: subtypes.filter((s) => s.typeId === t.id).map((s) => ({
      ...productSubTypeResource.toItem(s),
      products: rows.filter((p) => p.subtypeId === s.id).map((p) => ({
        id: p.id, ...treeProductValues(p), productImage: p.productImage, sortOrder: p.sortOrder,
        available: !off.has(p.id), unavailableUntil: off.get(p.id) ? new Date(off.get(p.id)!).toISOString() : null,
      })),
    })),
  }));
}

const ProductIdQuery = Obj('MenuProductIdQuery', { productId: Id });
const imageDelete = (name: string, field: ImageField, which: string) => route({
  method: 'DELETE', name, access: 'menu.manage',
  summary: `Removes the ${which} image of a product; the file goes once no row uses it.`,
  query: ProductIdQuery, result: Type.Boolean(),
  handler: ({ query, caller, ctx }) => deleteImage(ctx, caller, query.productId, field),
});

/** SPEC.md 7 Menu management, Products (the admin calls; the shop's is shop.ts). */
export function registerProductsAdmin(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Products', [
    route({
      method: 'GET', name: 'GetProductsGroupedByTypeAndSubtype', access: 'menu.manage',
      summary: "A brand's menu tree for /store: types, sub-types and products, hidden ones with their flag, deleted ones left out.",
      query: Obj('MenuTreeQuery', { brandId: Id }), result: Type.Array(MenuType),
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.brandId);
        return menuTree(ctx.db, query.brandId, null);
      },
    }),
    route({
      method: 'GET', name: 'GetProductsGroupedByTypeAndSubtypeHideUnHide', access: 'menuManagement.manage',
      summary: "The menu tree as one branch offers it (/MenuManagement): each product says whether it is switched off there, and until when.",
      query: Obj('MenuBranchTreeQuery', { branchId: Id }), result: Type.Array(MenuType),
      async handler({ query, caller, ctx }) {
        const brandId = await branchBrandInScope(ctx.db, caller, query.branchId);
        return menuTree(ctx.db, brandId, query.branchId);
      },
    }),
    route({
      method: 'POST', name: 'CreateProducts', access: 'menu.manage',
      summary: 'Creates a product in a sub-type, with its option groups, images (at most three) and addition groups.',
      body: CreateBody, result: MenuProduct,
      handler: ({ body, caller, ctx }) => createProduct(ctx, caller, body as never) as never,
    }),
    route({
      method: 'PUT', name: 'UpdateProduct', access: 'menu.manage',
      summary: 'Changes a product: only the fields sent. `optionGroups` and `additionGroupIds`, when sent, are the whole new set. `sortOrder` is its new place (0-based) among its sub-type\'s products; moved to another sub-type, it goes last unless a place is given.',
      body: UpdateBody, result: MenuProduct,
      handler: ({ body, caller, ctx }) => updateProduct(ctx, caller, body as never) as never,
    }),
    route({
      method: 'DELETE', name: 'DeleteProduct', access: 'menu.manage',
      summary: 'Takes a product off the menu for good. Orders keep their copies of its name, options and prices.',
      query: ProductIdQuery, result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => archiveProduct(ctx, caller, query.productId),
    }),
    imageDelete('DeleteProductImage', 'productImage', 'first'),
    imageDelete('DeleteProductSecondImage', 'productSecondImage', 'second'),
    imageDelete('DeleteProductThirdImage', 'productThirdImage', 'third'),
    route({
      method: 'POST', name: 'DuplicateProduct', access: 'menu.manage',
      summary: 'Copies a product with its option groups and addition groups into the same sub-type, hidden, named "<name> (copy)" unless a name is given.',
      body: Obj('DuplicateProductInput', { productId: Id, name: Type.Optional(Name) }), result: MenuProduct,
      handler: ({ body, caller, ctx }) => duplicateProduct(ctx, caller, body.productId, body.name) as never,
    }),
  ]);
}

