import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Caller } from '../../http/context';
import type { Db } from '../../db/client';
import { orders } from '../../db/schema';

/** Compares an ohash in constant time, so its bytes cannot be guessed one by one from timings. */
const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * What a reader sees of one order: all of it ('full': its owner, and staff in scope), or its
 * tracker only ('tracker': status, items, totals, branch, payment and refunds; nothing of the
 * customer's own: no name, phone, address, car or points).
 */
export type OrderView = 'full' | 'tracker';

/**
 * Who may read one order as a customer, and how: its owner (a registered customer) in full;
 * whoever else holds its ohash (the guest, whose orders all belong to the one shared guest
 * account; the /track-order link opened in another browser, signed in or not) as its tracker;
 * anyone else not at all (null). The one rule for GetOrderDetail, pay again and the order's live
 * tracking subscription.
 */
export function orderViewOf(caller: Caller, order: { userId: number | null; ohash: string } | undefined, ohash: string | null | undefined): OrderView | null {
  if (!order) return null;
  if (caller && !caller.isGuest && order.userId === caller.id) return 'full';
  return ohash && sameSecret(ohash, order.ohash) ? 'tracker' : null;
}

export const mayReadOrder = <O extends { userId: number | null; ohash: string }>(caller: Caller, order: O | undefined, ohash: string | null | undefined): order is O =>
  orderViewOf(caller, order, ohash) !== null;

/** What the access rule reads of one order (undefined: no such order). */
export async function orderKeyOf(db: Db, orderId: number) {
  const [order] = await db.select({ userId: orders.userId, ohash: orders.ohash }).from(orders).where(eq(orders.id, orderId));
  return order;
}

/**
 * Does a request without a token hold the order it names (`orderId` and its `ohash` in the query)?
 * Read from the raw query before any input check, so a caller without a token who does not hold
 * an order gets the same 401 as before, whatever else is wrong with the request: a wrong ohash
 * reads exactly like an unknown order.
 */
export async function queryHoldsOrder(db: Db, query: unknown): Promise<boolean> {
  const { orderId, ohash } = (query ?? {}) as Record<string, unknown>;
  if (typeof orderId !== 'string' || !/^[1-9]\d{0,9}$/.test(orderId) || Number(orderId) > 2_147_483_647) return false;
  if (typeof ohash !== 'string' || !ohash || ohash.length > 200) return false;
  return mayReadOrder(null, await orderKeyOf(db, Number(orderId)), ohash);
}
