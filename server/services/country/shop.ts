import { Type } from 'typebox';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brandDeliveryFees, deliveryAreas } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { COUNTRIES } from '../../../domain/countries';
import { DEFAULT_BRAND_ID } from '../../../domain/constants';
import { deliverableFor } from '../brandDeliveryFee/deliveryFee';
import { inLanguage, requestLanguage } from '../../http/language';

export const Country = Obj('Country', {
  id: Type.Integer(),
  name: Type.String(),
  isoCode: Type.String(),
  phoneCode: Type.String(),
  isDefault: Type.Boolean(),
});

export const ShopDeliveryArea = Obj('ShopDeliveryArea', {
  id: Type.Integer(),
  parentId: Type.Integer(),
  name: Type.String(),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  deliveryFee: Type.Number(),
  freeAboveAmount: Type.Union([Type.Number(), Type.Null()]),
});

export const ShopDeliveryRegion = Obj('ShopDeliveryRegion', {
  id: Type.Integer(),
  name: Type.String(),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  children: Type.Array(ShopDeliveryArea),
});

export function registerShopCountry(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Country', [
    route({
      method: 'GET',
      name: 'GetCountriesDictionary',
      access: 'public',
      summary: 'Countries of the phone input, Kuwait first (the default).',
      result: Type.Array(Country),
      handler: async () => COUNTRIES.map((c) => ({ ...c })),
    }),
    route({
      method: 'GET',
      name: 'GetDeliveryAreasTreeByBrandIdForShop',
      access: 'public',
      summary: 'Regions (parents) with the child areas the brand delivers to, for the location picker. brandId defaults to 7.',
      query: Obj('GetDeliveryAreasTreeByBrandIdForShopQuery', { brandId: Type.Optional(Type.Integer({ minimum: 1 })) }),
      result: Type.Array(ShopDeliveryRegion),
      async handler({ query, ctx, req }) {
        const brandId = query.brandId ?? DEFAULT_BRAND_ID;
        const name = (area: { name: string; nameAr: string | null }) => inLanguage(requestLanguage(req.headers), area.name, area.nameAr);
        const parents = await ctx.db.select().from(deliveryAreas).where(isNull(deliveryAreas.parentId)).orderBy(asc(deliveryAreas.id));
        const children = await ctx.db
          .select({ area: deliveryAreas, amount: brandDeliveryFees.amount, freeAbove: brandDeliveryFees.freeAboveAmount })
          .from(deliveryAreas)
          .innerJoin(brandDeliveryFees, and(eq(brandDeliveryFees.areaId, deliveryAreas.id), eq(brandDeliveryFees.brandId, brandId)))
          .where(deliverableFor(ctx.db, brandId))
          .orderBy(asc(deliveryAreas.name));
        return parents
          .map((p) => ({
            id: p.id, name: name(p), latitude: p.latitude, longitude: p.longitude,
            children: children.filter((c) => c.area.parentId === p.id).map(({ area, amount, freeAbove }) => ({
              id: area.id, parentId: p.id, name: name(area), latitude: area.latitude, longitude: area.longitude,
              deliveryFee: Number(amount), freeAboveAmount: freeAbove === null ? null : Number(freeAbove),
            })),
          }))
          .filter((p) => p.children.length > 0);
      },
    }),
  ]);
}
