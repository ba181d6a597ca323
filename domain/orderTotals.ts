import { percentOf, type Fils } from './money';

/**
 * How an order's amounts add up, in fils. The server computes them from the database when an
 * order is saved; the shop may use the same function to preview a total.
 *
 * Decisions where the spec is silent:
 * - the group discount applies to the items' subtotal, never to the delivery fee;
 * - taxes apply to the subtotal after the discount, each tax rounded on its own;
 * - free delivery (freeAboveAmount) compares with the subtotal before the discount, the same
 *   amount the shop sends to BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer.
 */
export interface OrderTotalsInput {
  lineTotals: Fils[];
  discountPercent: number;
  taxPercents: number[];
  deliveryFee: Fils;
}

export interface OrderTotals { subtotal: Fils; discount: Fils; tax: Fils; deliveryFee: Fils; total: Fils }

export function orderTotals(input: OrderTotalsInput): OrderTotals {
  const subtotal = input.lineTotals.reduce((a, b) => a + b, 0);
  const discount = Math.min(subtotal, percentOf(subtotal, input.discountPercent));
  const taxBase = subtotal - discount;
  const tax = input.taxPercents.reduce((sum, p) => sum + percentOf(taxBase, p), 0);
  return { subtotal, discount, tax, deliveryFee: input.deliveryFee, total: taxBase + tax + input.deliveryFee };
}

/** The delivery fee of an area for an order subtotal: free at or above `freeAbove` when set. */
export const deliveryFeeFor = (subtotal: Fils, fee: Fils, freeAbove: Fils | null): Fils =>
  freeAbove !== null && subtotal >= freeAbove ? 0 : fee;
