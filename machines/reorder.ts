import { toFils, fromFils } from '../domain/money';
import type { CartEvent, CartPrice } from './cart';

/**
 * "Order again" (issue 24): a past order's lines become cart additions (the cart's own `cart.add`
 * and `cart.reprice` events, so merging and the quantity limits are the cart's) at today's prices, with what changed
 * since the order: lines no longer on the menu or not available now are left out, options no
 * longer offered are dropped from their line, and a line whose price moved says so.
 */

/** A line of the past order as Store/GetOrderDetail answers it. */
export interface PastLine {
  productId: number;
  name: string;
  quantity: number;
  /** What one unit cost then, its options included (0 when it was paid with points). */
  unitPrice: number;
  isRedeem: boolean;
  options: { id: number; name: string; price: number }[];
}

/** A product as the branch offers it today (Products/GetProductsPricesForCustomer); absent: off the menu. */
export interface TodayProduct {
  id: number;
  name: string;
  price: number;
  available: boolean;
  productImage?: string | null;
  productDeliveryText?: string | null;
  options: { id: number; name: string; price: number; available: boolean }[];
}

export interface ReorderPlan {
  adds: Extract<CartEvent, { type: 'cart.add' }>[];
  /** Sent after the adds: a line the cart already held (merged with an added one) takes today's price too. */
  reprice: Extract<CartEvent, { type: 'cart.reprice' }>;
  /** Lines left out: the product is off the menu, or not available now. */
  unavailable: string[];
  /** Options no longer offered (or not available now), by line. */
  optionsDropped: { name: string; options: string[] }[];
  /** Lines whose unit price is not what it was (a reward line is now at its price). */
  priceChanges: { name: string; was: number; now: number; wasReward: boolean }[];
}

export function planReorder(lines: PastLine[], today: TodayProduct[]): ReorderPlan {
  const prices: CartPrice[] = today.map((p) => ({ productId: p.id, name: p.name, price: p.price, options: p.options.map(({ id, name, price }) => ({ id, name, price })) }));
  const plan: ReorderPlan = { adds: [], reprice: { type: 'cart.reprice', prices }, unavailable: [], optionsDropped: [], priceChanges: [] };
  for (const line of lines) {
    const product = today.find((p) => p.id === line.productId);
    if (!product || !product.available) { plan.unavailable.push(product?.name ?? line.name); continue; }
    // One of each option: the cart holds an option once (a legacy order's 2 × extra shot is added once).
    const wanted = line.options.filter((o, i) => line.options.findIndex((x) => x.id === o.id) === i);
    const kept = wanted.flatMap((o) => {
      const now = product.options.find((x) => x.id === o.id && x.available);
      return now ? [{ id: now.id, name: now.name, price: now.price }] : [];
    });
    const dropped = line.options.filter((o) => !kept.some((k) => k.id === o.id));
    if (dropped.length) plan.optionsDropped.push({ name: product.name, options: [...new Set(dropped.map((o) => o.name))] });
    const nowFils = toFils(product.price) + kept.reduce((sum, o) => sum + toFils(o.price), 0);
    // Compared with what the same choice cost then: a dropped option's price is not a price change.
    const wasFils = line.isRedeem ? 0 : toFils(line.unitPrice) - dropped.reduce((sum, o) => sum + toFils(o.price), 0);
    if (nowFils !== wasFils) plan.priceChanges.push({ name: product.name, was: fromFils(wasFils), now: fromFils(nowFils), wasReward: line.isRedeem });
    plan.adds.push({
      type: 'cart.add',
      product: { id: product.id, name: product.name, price: product.price, productImage: product.productImage ?? null, productDeliveryText: product.productDeliveryText ?? '' },
      selected_options: kept,
      quantity: line.quantity,
    });
  }
  return plan;
}

/** True when the plan has something to tell the customer besides "added". */
export const reorderChanged = (plan: ReorderPlan) => plan.unavailable.length + plan.optionsDropped.length + plan.priceChanges.length > 0;
