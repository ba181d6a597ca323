import { timingSafeEqual } from 'node:crypto';
import type { Caller } from '../../http/context';

/** Compares an ohash in constant time, so its bytes cannot be guessed one by one from timings. */
const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Who may read one order as a customer: its owner (a registered customer), or whoever holds its
 * ohash (the guest, whose orders all belong to the one guest account, and the /track-order link).
 * The one rule for GetOrderDetail, pay again and the order's live tracking subscription.
 */
export const mayReadOrder = <O extends { userId: number | null; ohash: string }>(caller: NonNullable<Caller>, order: O | undefined, ohash: string | null | undefined): order is O =>
  !!order && ((!caller.isGuest && order.userId === caller.id) || (!!ohash && sameSecret(ohash, order.ohash)));
