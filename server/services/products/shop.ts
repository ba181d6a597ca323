import { Type } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, branchHiddenProducts, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { type MenuWindows, liveProduct, loadMenuProducts, MenuAt, menuTimeOf, offeredAt, switchStillOn } from '../productTypesAndSubtypes/menu';
import { route, service } from '../../http/routes';
import { inLanguage, localizedColumn, requestLanguage } from '../../http/language';
import type { AppContext } from '../../http/context';

export const ShopProduct = Obj('ShopProduct', {
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  price: Type.Number(),
  productImage: Type.Union([Type.String(), Type.Null()]),
  productDeliveryText: Type.String(),
  /** False while the branch has it switched off or sold out: shown, but it cannot be added. */
  available: Type.Boolean(),
  /** When a sold-out product comes back by itself (ISO time); null when it is available or off until switched on. */
  unavailableUntil: Nullable(Type.String()),
});
export const ShopProductSubtype = Obj('ShopProductSubtype', {
  id: Type.Integer(),
  name: Type.String(),
  products: Type.Array(ShopProduct),
});
export const ShopProductType = Obj('ShopProductType', {
  id: Type.Integer(),
  name: Type.String(),
  subtypes: Type.Array(ShopProductSubtype),
});

const ShopOptionPrice = Obj('ShopOptionPrice', { id: Type.Integer(), name: Type.String(), price: Type.Number(), available: Type.Boolean() });
export const ShopProductPrice = Obj('ShopProductPrice', {
  id: Type.Integer(), name: Type.String(), price: Type.Number(), available: Type.Boolean(), unavailableUntil: Nullable(Type.String()),
  /** False when it is not on the menu at `at` (menus by time of day; `available` is false then too), so the cart says why. */
  offered: Type.Boolean(),
  /** Every option of its groups and addition groups, with today's price; an option no longer on the menu is absent. */
  options: Type.Array(ShopOptionPrice),
});

export function registerShopProducts(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Products', [
    route({
      method: 'GET',
      name: 'GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes',
      access: 'public',
      summary: "A branch's products, grouped by type and subtype: hidden ones left out, those switched off for the branch, or not offered at `at` (menus by time of day), marked unavailable.",
      query: Obj('ShopProductsQuery', { brandId: Type.Integer({ minimum: 1 }), branchId: Type.Integer({ minimum: 1 }), at: MenuAt }),
      result: Type.Array(ShopProductType),
      async handler({ query, req, ctx }) {
        const [branch] = await ctx.db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, query.branchId));
        if (!branch || branch.brandId !== query.brandId) throw badRequest('This branch does not belong to the brand.');
        const at = menuTimeOf(query.at);
        const language = requestLanguage(req.headers);
        const rows = await ctx.db
          .select({
            typeId: productTypes.id, typeName: localizedColumn(language, productTypes.name, productTypes.nameAr),
            subtypeId: productSubtypes.id, subtypeName: localizedColumn(language, productSubtypes.name, productSubtypes.nameAr),
            id: products.id, name: localizedColumn(language, products.name, products.nameAr),
            description: localizedColumn(language, products.description, products.descriptionAr), price: products.price,
            productImage: products.productImage, productDeliveryText: products.productDeliveryText,
            offUntil: branchHiddenProducts.unavailableUntil, off: branchHiddenProducts.productId,
            windows: { type: productTypes.availabilityWindows, subtype: productSubtypes.availabilityWindows, product: products.availabilityWindows },
          })
          .from(products)
          .innerJoin(productSubtypes, eq(productSubtypes.id, products.subtypeId))
          .innerJoin(productTypes, eq(productTypes.id, productSubtypes.typeId))
          .leftJoin(branchHiddenProducts, and(
            eq(branchHiddenProducts.branchId, query.branchId), eq(branchHiddenProducts.productId, products.id),
            switchStillOn(branchHiddenProducts.unavailableUntil),
          ))
          .where(and(
            eq(products.brandId, query.brandId), liveProduct,
            eq(products.isHidden, false), eq(productSubtypes.isHidden, false), eq(productTypes.isHidden, false),
          ))
          .orderBy(asc(productTypes.sortOrder), asc(productTypes.id), asc(productSubtypes.sortOrder), asc(productSubtypes.id), asc(products.sortOrder), asc(products.id));
        return groupByTypeAndSubtype(rows, at);
      },
    }),
    route({
      method: 'GET',
      name: 'GetProductsPricesForCustomer',
      access: 'public',
      summary: "Today's prices of the products in a cart, with their options, as the branch offers them: checkout shows the total the server will charge before the customer confirms. A product no longer on the brand's menu is absent; one not offered at `at` (menus by time of day) is unavailable.",
      query: Obj('ShopProductPricesQuery', {
        brandId: Type.Integer({ minimum: 1 }), branchId: Type.Integer({ minimum: 1 }), at: MenuAt,
        productIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }),
      }),
      result: Type.Array(ShopProductPrice),
      async handler({ query, req, ctx }) {
        const [branch] = await ctx.db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, query.branchId));
        if (!branch || branch.brandId !== query.brandId) throw badRequest('This branch does not belong to the brand.');
        const at = menuTimeOf(query.at);
        const language = requestLanguage(req.headers);
        const menu = await loadMenuProducts(ctx.db, query.productIds, query.branchId);
        return [...menu.values()].filter((m) => m.product.brandId === query.brandId && !m.hidden).map((m) => {
          const offered = offeredAt(m, at);
          return {
            id: m.product.id, name: inLanguage(language, m.product.name, m.product.nameAr), price: Number(m.product.price), available: m.available && offered, offered,
            unavailableUntil: m.unavailableUntil?.toISOString() ?? null,
            options: m.groups.flatMap((g) => g.options.map((o) => ({ id: o.item.id, name: inLanguage(language, o.item.name, o.item.nameAr), price: Number(o.item.price), available: o.available }))),
          };
        });
      },
    }),
  ]);
}

type Row = {
  typeId: number; typeName: string; subtypeId: number; subtypeName: string; id: number; name: string; description: string; price: string;
  productImage: string | null; productDeliveryText: string; off: number | null; offUntil: Date | null; windows: MenuWindows;
};

function groupByTypeAndSubtype(rows: Row[], at: Date) {
  const types = new Map<number, { id: number; name: string; subtypes: Map<number, { id: number; name: string; products: unknown[] }> }>();
  for (const r of rows) {
    let t = types.get(r.typeId);
    if (!t) types.set(r.typeId, (t = { id: r.typeId, name: r.typeName, subtypes: new Map() }));
    let s = t.subtypes.get(r.subtypeId);
    if (!s) t.subtypes.set(r.subtypeId, (s = { id: r.subtypeId, name: r.subtypeName, products: [] }));
    s.products.push({
      id: r.id, name: r.name, description: r.description, price: Number(r.price), productImage: r.productImage, productDeliveryText: r.productDeliveryText,
      available: r.off === null && offeredAt(r, at), unavailableUntil: r.offUntil ? new Date(r.offUntil).toISOString() : null,
    });
  }
  return [...types.values()].map((t) => ({ ...t, subtypes: [...t.subtypes.values()] })) as never;
}
