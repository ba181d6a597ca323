import { Type } from 'typebox';
import { and, eq, ne } from 'drizzle-orm';
import { brandDeliveryFees, deliveryAreas } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { defineResource } from '../../resources/resource';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Amount = Type.Number({ minimum: 0, maximum: 999999.999, multipleOf: 0.001, description: "In the brand's currency, 3 decimals." });

/** A brand's delivery fee for one area (SPEC.md 3: brandId, areaId, amount), free at or above freeAboveAmount. */
export const BrandDeliveryFee = Obj('BrandDeliveryFee', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  areaId: Type.Integer(),
  amount: Type.Number(),
  freeAboveAmount: Type.Union([Type.Number(), Type.Null()]),
});

/**
 * SPEC.md 7 Configuration, BrandDeliveryFee: Create, Update, GetBrandDeliveryFeeListByBrandId,
 * Delete (id). A brand delivers to an area exactly when it has a fee row for it (deliveryFee.ts),
 * so saving an order for delivery and GetDeliveryFeeForOrderingCustomer read these rows.
 */
export const brandDeliveryFeeResource = defineResource({
  service: 'BrandDeliveryFee',
  table: brandDeliveryFees,
  item: BrandDeliveryFee,
  create: Type.Object({ brandId: Id, areaId: Id, amount: Amount, freeAboveAmount: Type.Optional(Nullable(Amount)) }),
  update: Type.Object({ id: Id, areaId: Type.Optional(Id), amount: Type.Optional(Amount), freeAboveAmount: Type.Optional(Nullable(Amount)) }),
  scope: { level: 'brand', field: 'brandId' },
  references: { areaId: { table: deliveryAreas, label: 'delivery area' } },
  can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
  methods: { list: 'GetBrandDeliveryFeeListByBrandId', create: 'Create', update: 'Update', delete: 'Delete?id' },
  sortable: ['id', 'areaId', 'amount', 'freeAboveAmount'],
  defaultSorting: 'areaId asc',
  filters: { brandId: 'equals', areaId: 'equals' },
  label: 'Delivery fee',
  async check(tx, next) {
    const [area] = await tx.select({ parentId: deliveryAreas.parentId }).from(deliveryAreas).where(eq(deliveryAreas.id, Number(next.areaId)));
    if (area && area.parentId === null) {
      const message = 'Choose an area, not a governorate: fees are set per area.';
      throw badRequest(message, [{ message, members: ['areaId'] }]);
    }
    const taken = await tx.select({ id: brandDeliveryFees.id }).from(brandDeliveryFees).where(and(
      eq(brandDeliveryFees.brandId, Number(next.brandId)), eq(brandDeliveryFees.areaId, Number(next.areaId)),
      next.id === undefined ? undefined : ne(brandDeliveryFees.id, Number(next.id)),
    ));
    if (taken.length) {
      const message = 'This brand already has a delivery fee for this area: change that one instead.';
      throw badRequest(message, [{ message, members: ['areaId'] }]);
    }
  },
});
