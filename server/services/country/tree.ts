import { Type } from 'typebox';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deliveryAreas } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';

export const DeliveryArea = Obj('DeliveryArea', {
  id: Type.Integer(),
  parentId: Type.Integer(),
  name: Type.String(),
});
export const DeliveryRegion = Obj('DeliveryRegion', {
  id: Type.Integer(),
  name: Type.String(),
  children: Type.Array(DeliveryArea),
});

/**
 * SPEC.md 7 Menu management, Country/GetDeliveryAreasTree: every governorate with every area, for
 * staff pickers (a brand's delivery fee is set per area). The shop's tree (shop.ts) shows only
 * the areas a brand delivers to.
 */
export function registerDeliveryAreasTree(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Country', [
    route({
      method: 'GET', name: 'GetDeliveryAreasTree', access: 'dashboard.view',
      summary: 'Governorates (by id) with all their areas (by name).',
      result: Type.Array(DeliveryRegion),
      async handler({ ctx }) {
        const rows = await ctx.db.select({ id: deliveryAreas.id, parentId: deliveryAreas.parentId, name: deliveryAreas.name })
          .from(deliveryAreas).orderBy(asc(deliveryAreas.name), asc(deliveryAreas.id));
        const parents = rows.filter((r) => r.parentId === null).sort((a, b) => a.id - b.id);
        return parents.map((p) => ({
          id: p.id, name: p.name,
          children: rows.filter((r) => r.parentId === p.id).map((r) => ({ id: r.id, parentId: p.id, name: r.name })),
        }));
      },
    }),
  ]);
}
