import { Type } from 'typebox';
import { Obj } from '../../http/envelope';
import type { AppContext, Caller } from '../../http/context';
import { filsToDecimal } from '../../../domain/money';
import { kuwaitTime, planOnCatalog } from './planOrder';
import { checkSlot, slotConflict, SlotRefusal } from '../../orders/slots';
import type { SaveNewOrderInput } from './orderInput';

export const OrderQuote = Obj('OrderQuote', {
  subtotal: Type.Number(),
  discount: Type.Number(),
  tax: Type.Number(),
  deliveryFee: Type.Number(),
  /** What Store/SaveNewOrderVS1 would charge for the same body now. */
  total: Type.Number(),
  /** The points the order would spend (its lines paid with points), and its free items (0 or 1). */
  points: Type.Integer(),
  freeItems: Type.Integer(),
  /** What the customer's wallet would pay (payWithWallet: the whole total), else 0. */
  wallet: Type.Number(),
  /** Minutes until it should be ready if placed now (domain/readyEstimate.ts). */
  readyMinutes: Type.Integer(),
});

/**
 * Store/QuoteOrder: the order's price as Store/SaveNewOrderVS1 would charge it, by the same
 * planOrder (menu prices, options, discount group, taxes, delivery fee), with nothing written.
 * It refuses what the order would refuse, with the same messages. It reads the catalog's version
 * first: with no write to check the cached rows afterwards, the quote is never older than the request.
 */
export async function quoteOrder(ctx: AppContext, caller: NonNullable<Caller>, body: SaveNewOrderInput) {
  const { totals, points, wallet, freeItems, ready, slot } = await planOnCatalog(ctx, caller, body, { current: true });
  // A full or closed slot is refused as the order would be (409, the next free time in its details); nothing is locked.
  await checkSlot(ctx.db, slot).catch(async (err) => { throw err instanceof SlotRefusal ? await slotConflict(ctx.db, err, kuwaitTime) : err; });
  const n = (fils: number) => Number(filsToDecimal(fils));
  return { subtotal: n(totals.subtotal), discount: n(totals.discount), tax: n(totals.tax), deliveryFee: n(totals.deliveryFee), total: n(totals.total),
    points, freeItems, wallet: n(wallet), readyMinutes: ready.minutes };
}
