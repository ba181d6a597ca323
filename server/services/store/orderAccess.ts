import type { Caller } from '../../http/context';
import { sameSecret } from './customerOrders';

/**
 * Who may read one order as a customer: its owner (a registered customer), or whoever holds its
 * ohash (the guest, whose orders all belong to the one guest account, and the /track-order link).
 * Used by GetOrderDetail's neighbours (pay again) and the order's live tracking subscription.
 */
export const mayReadOrder = (caller: NonNullable<Caller>, order: { userId: number | null; ohash: string } | undefined, ohash: string | null | undefined) =>
  !!order && ((!caller.isGuest && order.userId === caller.id) || (!!ohash && sameSecret(ohash, order.ohash)));
