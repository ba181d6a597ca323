import { and, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandDeliveryFees, brandHiddenDeliveryAreas, deliveryAreas } from '../../db/schema';
import { toFils, type Fils } from '../../../domain/money';
import { deliveryFeeFor } from '../../../domain/orderTotals';

export const NOT_DELIVERING = 'Sorry, we do not deliver to this area.';

/** Areas a brand delivers to: child areas with a fee row for the brand, not hidden by the brand. */
export const deliverableFor = (db: Db, brandId: number) => and(
  isNotNull(deliveryAreas.parentId),
  notExists(db.select({ x: sql`1` }).from(brandHiddenDeliveryAreas)
    .where(and(eq(brandHiddenDeliveryAreas.brandId, brandId), eq(brandHiddenDeliveryAreas.areaId, deliveryAreas.id)))),
);

export interface DeliveryQuote {
  /** The fee this order pays: 0 when the subtotal reaches freeAbove. */
  fee: Fils;
  /** The area's fee before the free-delivery rule. */
  areaFee: Fils;
  freeAbove: Fils | null;
}

/**
 * The delivery fee of a brand for an area and an order subtotal, the one rule behind both
 * BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer and the fee of a saved order.
 * Null when the brand does not deliver there.
 */
export async function deliveryQuote(db: Db, brandId: number, areaId: number, subtotal: Fils): Promise<DeliveryQuote | null> {
  const [row] = await db
    .select({ amount: brandDeliveryFees.amount, freeAbove: brandDeliveryFees.freeAboveAmount })
    .from(brandDeliveryFees)
    .innerJoin(deliveryAreas, eq(deliveryAreas.id, brandDeliveryFees.areaId))
    .where(and(eq(brandDeliveryFees.brandId, brandId), eq(brandDeliveryFees.areaId, areaId), deliverableFor(db, brandId)));
  if (!row) return null;
  const areaFee = toFils(row.amount);
  const freeAbove = row.freeAbove === null ? null : toFils(row.freeAbove);
  return { fee: deliveryFeeFor(subtotal, areaFee, freeAbove), areaFee, freeAbove };
}
