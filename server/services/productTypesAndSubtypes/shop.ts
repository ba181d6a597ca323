import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { loadMenuProducts, MenuAt, menuTimeOf, offeredAt } from './menu';
import { inLanguage, requestLanguage } from '../../http/language';
import { shopProductFields, shopProductValues } from '../products/resource';

export const ProductOption = Obj('ProductOption', { id: Type.Integer(), name: Type.String(), price: Type.Number() });

export const ProductOptionGroup = Obj('ProductOptionGroup', {
  id: Type.Integer(),
  name: Type.String(),
  allowMultiple: Type.Boolean(),
  isRequired: Type.Boolean(),
  subItem: Type.Array(ProductOption),
});

export const ProductDetails = Obj('ProductDetails', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  price: Type.Number(),
  productImage: Type.Union([Type.String(), Type.Null()]),
  productSecondImage: Type.Union([Type.String(), Type.Null()]),
  productThirdImage: Type.Union([Type.String(), Type.Null()]),
  productDeliveryText: Type.String(),
  /** Points that redeem this product for free; null when it cannot be redeemed. */
  redeemPoints: Type.Union([Type.Integer(), Type.Null()]),
  optionGroups: Type.Array(ProductOptionGroup),
  /** False while the branch has it switched off or sold out, or it is not offered at `at` (menus by time of day): the page shows it, but it cannot be added. */
  available: Type.Boolean(),
  /** When a sold-out product comes back by itself (ISO time); null when available, or off until switched on. */
  unavailableUntil: Nullable(Type.String()),
  /** The fields the product's declaration shows in the shop as stored (server/services/products/resource.ts). */
  ...shopProductFields,
});

export function registerShopProductTypesAndSubtypes(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'ProductTypesAndSubtypes', [
    route({
      method: 'GET',
      name: 'GetProductItemWithSubItemDictionarywithProduct',
      access: 'public',
      summary: "A product's details, its option groups and the addition groups that apply. With branchId, options switched off for that branch are left out and `available` says whether the product can be ordered there. A hidden or deleted product is a 404.",
      query: Obj('GetProductItemWithSubItemDictionarywithProductQuery', {
        productid: Type.Integer({ minimum: 1 }),
        branchId: Type.Optional(Type.Integer({ minimum: 1 })),
        at: MenuAt,
      }),
      result: ProductDetails,
      async handler({ query, req, ctx }) {
        const language = requestLanguage(req.headers);
        const branchId = query.branchId ?? null;
        const at = menuTimeOf(query.at);
        const menu = (await loadMenuProducts(ctx.db, [query.productid], branchId)).get(query.productid);
        if (!menu || menu.hidden) throw notFound('Product');
        if (branchId !== null) {
          const [branch] = await ctx.db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, branchId));
          if (!branch || branch.brandId !== menu.product.brandId) throw badRequest('This branch does not belong to the brand.');
        }
        const p = menu.product;
        return {
          id: p.id, brandId: p.brandId, name: inLanguage(language, p.name, p.nameAr),
          description: inLanguage(language, p.description, p.descriptionAr), price: Number(p.price),
          productImage: p.productImage, productSecondImage: p.productSecondImage, productThirdImage: p.productThirdImage,
          productDeliveryText: inLanguage(language, p.productDeliveryText, p.productDeliveryTextAr), redeemPoints: p.redeemPoints,
          available: menu.available && offeredAt(menu, at), unavailableUntil: menu.unavailableUntil?.toISOString() ?? null,
          ...shopProductValues(p),
          // A group whose options are all unavailable is left out: it cannot be chosen, so it is not required either.
          optionGroups: menu.groups
            .map(({ group, options }) => ({
              id: group.id, name: inLanguage(language, group.name, group.nameAr), allowMultiple: group.allowMultiple, isRequired: group.isRequired,
              subItem: options.filter((o) => o.available).map(({ item }) => ({ id: item.id, name: inLanguage(language, item.name, item.nameAr), price: Number(item.price) })),
            }))
            .filter((g) => g.subItem.length > 0),
        };
      },
    }),
  ]);
}
