import { Type } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brandDeliveryFees, brandHiddenDeliveryAreas, deliveryAreas } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { auditMenu, brandInScope, Id } from '../productTypesAndSubtypes/menuAdmin';

export const BrandDeliveryArea = Obj('BrandDeliveryArea', {
  id: Type.Integer(), parentId: Type.Integer(), name: Type.String(),
  /** Hidden for the brand: the shop does not offer it and an order to it is refused. */
  isHidden: Type.Boolean(),
  /** The brand's delivery fee for the area; null when it has none (it does not deliver there). */
  deliveryFee: Nullable(Type.Number()),
});
export const BrandDeliveryRegion = Obj('BrandDeliveryRegion', { id: Type.Integer(), name: Type.String(), children: Type.Array(BrandDeliveryArea) });

/** Governorates with every area, each with the brand's hidden flag and fee. */
async function brandAreaTree(ctx: AppContext, brandId: number) {
  const rows = await ctx.db
    .select({ id: deliveryAreas.id, parentId: deliveryAreas.parentId, name: deliveryAreas.name, hidden: brandHiddenDeliveryAreas.areaId, fee: brandDeliveryFees.amount })
    .from(deliveryAreas)
    .leftJoin(brandHiddenDeliveryAreas, and(eq(brandHiddenDeliveryAreas.areaId, deliveryAreas.id), eq(brandHiddenDeliveryAreas.brandId, brandId)))
    .leftJoin(brandDeliveryFees, and(eq(brandDeliveryFees.areaId, deliveryAreas.id), eq(brandDeliveryFees.brandId, brandId)))
    .orderBy(asc(deliveryAreas.name), asc(deliveryAreas.id));
  return rows.filter((r) => r.parentId === null).sort((a, b) => a.id - b.id).map((p) => ({
    id: p.id, name: p.name,
    children: rows.filter((r) => r.parentId === p.id).map((r) => ({
      id: r.id, parentId: p.id, name: r.name, isHidden: r.hidden !== null, deliveryFee: r.fee === null ? null : Number(r.fee),
    })),
  }));
}

/** SPEC.md 7 Menu management, Country: a brand's delivery areas (/DeliveryAreas/{id}) with hide and unhide. */
export function registerBrandDeliveryAreas(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Country', [
    route({
      method: 'GET', name: 'GetDeliveryAreasTreeByBrandId', access: 'deliveryAreas.manage',
      summary: "Governorates with all their areas, each with the brand's hidden flag and delivery fee.",
      query: Obj('BrandDeliveryAreasQuery', { brandId: Id }), result: Type.Array(BrandDeliveryRegion),
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.brandId);
        return brandAreaTree(ctx, query.brandId);
      },
    }),
    route({
      method: 'GET', name: 'GetUpdateDeliveryAreaHide', access: 'deliveryAreas.manage',
      summary: 'Hides an area for a brand (isHide=true: the shop stops offering it and orders to it are refused) or shows it again.',
      query: Obj('DeliveryAreaHideQuery', { brandId: Id, areaId: Id, isHide: Type.Boolean() }), result: BrandDeliveryArea,
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.brandId);
        return ctx.db.transaction(async (tx) => {
          const [area] = await tx.select().from(deliveryAreas).where(eq(deliveryAreas.id, query.areaId));
          if (!area || area.parentId === null) {
            const message = `There is no area ${query.areaId}: hide the areas of a governorate one by one.`;
            throw badRequest(message, [{ message, members: ['areaId'] }]);
          }
          const where = and(eq(brandHiddenDeliveryAreas.brandId, query.brandId), eq(brandHiddenDeliveryAreas.areaId, area.id));
          const wasHidden = (await tx.select().from(brandHiddenDeliveryAreas).where(where).for('update')).length > 0;
          if (query.isHide && !wasHidden) await tx.insert(brandHiddenDeliveryAreas).values({ brandId: query.brandId, areaId: area.id }).onConflictDoNothing();
          if (!query.isHide && wasHidden) await tx.delete(brandHiddenDeliveryAreas).where(where);
          if (query.isHide !== wasHidden) {
            await auditMenu(tx, caller, 'BrandDeliveryArea', 'update', area.id, query.brandId, { isHidden: wasHidden }, { isHidden: query.isHide });
          }
          const [fee] = await tx.select({ amount: brandDeliveryFees.amount }).from(brandDeliveryFees)
            .where(and(eq(brandDeliveryFees.brandId, query.brandId), eq(brandDeliveryFees.areaId, area.id)));
          return { id: area.id, parentId: area.parentId, name: area.name, isHidden: query.isHide, deliveryFee: fee ? Number(fee.amount) : null };
        });
      },
    }),
  ]);
}
