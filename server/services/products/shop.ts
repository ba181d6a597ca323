import { Type } from 'typebox';
import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, branchHiddenProducts, products, productSubtypes, productTypes } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';

export const ShopProduct = Obj('ShopProduct', {
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  price: Type.Number(),
  productImage: Type.Union([Type.String(), Type.Null()]),
  productDeliveryText: Type.String(),
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

export function registerShopProducts(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Products', [
    route({
      method: 'GET',
      name: 'GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes',
      access: 'public',
      summary: "A branch's visible products, grouped by type and subtype.",
      query: Obj('ShopProductsQuery', { brandId: Type.Integer({ minimum: 1 }), branchId: Type.Integer({ minimum: 1 }) }),
      result: Type.Array(ShopProductType),
      async handler({ query, ctx }) {
        const [branch] = await ctx.db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, query.branchId));
        if (!branch || branch.brandId !== query.brandId) throw badRequest('This branch does not belong to the brand.');
        const rows = await ctx.db
          .select({
            typeId: productTypes.id, typeName: productTypes.name, subtypeId: productSubtypes.id, subtypeName: productSubtypes.name,
            id: products.id, name: products.name, description: products.description, price: products.price,
            productImage: products.productImage, productDeliveryText: products.productDeliveryText,
          })
          .from(products)
          .innerJoin(productSubtypes, eq(productSubtypes.id, products.subtypeId))
          .innerJoin(productTypes, eq(productTypes.id, productSubtypes.typeId))
          .where(and(
            eq(products.brandId, query.brandId),
            eq(products.isHidden, false),
            notExists(ctx.db.select({ x: sql`1` }).from(branchHiddenProducts)
              .where(and(eq(branchHiddenProducts.branchId, query.branchId), eq(branchHiddenProducts.productId, products.id)))),
          ))
          .orderBy(asc(productTypes.sortOrder), asc(productTypes.id), asc(productSubtypes.sortOrder), asc(productSubtypes.id), asc(products.sortOrder), asc(products.id));
        return groupByTypeAndSubtype(rows);
      },
    }),
  ]);
}

type Row = { typeId: number; typeName: string; subtypeId: number; subtypeName: string; id: number; name: string; description: string; price: string; productImage: string | null; productDeliveryText: string };

function groupByTypeAndSubtype(rows: Row[]) {
  const types = new Map<number, { id: number; name: string; subtypes: Map<number, { id: number; name: string; products: unknown[] }> }>();
  for (const r of rows) {
    let t = types.get(r.typeId);
    if (!t) types.set(r.typeId, (t = { id: r.typeId, name: r.typeName, subtypes: new Map() }));
    let s = t.subtypes.get(r.subtypeId);
    if (!s) t.subtypes.set(r.subtypeId, (s = { id: r.subtypeId, name: r.subtypeName, products: [] }));
    s.products.push({ id: r.id, name: r.name, description: r.description, price: Number(r.price), productImage: r.productImage, productDeliveryText: r.productDeliveryText });
  }
  return [...types.values()].map((t) => ({ ...t, subtypes: [...t.subtypes.values()] })) as never;
}
