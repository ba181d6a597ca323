import { Type } from 'typebox';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brands, currencies, orders, payments } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import type { AppContext, Caller } from '../../http/context';
import { paymentProviderFor } from '../../payments';
import { mayReadOrder } from './orderAccess';

export const PayOrderAgainInput = Obj('PayOrderAgainInput', {
  orderId: Type.Integer({ minimum: 1 }),
  ohash: Type.Optional(Type.String({ maxLength: 200 })),
});
/** The same order and ohash in the query: what admits a caller without a token (orderAccess.ts queryHoldsOrder). */
export const PayOrderAgainQuery = Obj('PayOrderAgainQuery', {
  orderId: Type.Optional(Type.Integer({ minimum: 1 })),
  ohash: Type.Optional(Type.String({ maxLength: 200 })),
});
export const PayOrderAgainResult = Obj('PayOrderAgainResult', {
  /** Where the browser goes to pay: the payment still open, or a new one. */
  paymentUrl: Type.String(),
});

export const PAY_AGAIN_TEXT = {
  paid: 'This order is paid already.',
  rejected: 'This order was rejected, so it cannot be paid.',
  notOnline: 'This order is paid at the branch, not online.',
} as const;

/**
 * Store/PayOrderAgain: a card payment that was cancelled (or abandoned) can be started again while
 * the order is unpaid and not rejected. Never charged twice: under the order's row lock, an order
 * has at most one open (pending) payment; while one is open its link is answered again instead of a
 * new payment, none is started once any payment is paid, and only an open payment can be paid
 * (server/payments/sandbox.ts settles pending payments only). Who: the order's owner, or whoever
 * holds its ohash (orderAccess.ts), with or without a session; it pays that order and nothing else.
 */
export async function payOrderAgain(ctx: AppContext, caller: Caller, orderId: number, ohash: string | undefined) {
  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [o] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!mayReadOrder(caller, o, ohash)) throw notFound('Order');
    const [last] = await db.select().from(payments).where(eq(payments.orderId, o.id)).orderBy(desc(payments.id)).limit(1);
    const paid = await db.select({ id: payments.id }).from(payments).where(and(eq(payments.orderId, o.id), eq(payments.status, 'paid'))).limit(1);
    if (o.payment === 'paid' || paid.length) throw badRequest(PAY_AGAIN_TEXT.paid);
    if (o.status === 'rejected') throw badRequest(PAY_AGAIN_TEXT.rejected);
    const provider = last && paymentProviderFor(last.provider, ctx.config);
    if (!last || !provider || last.provider === 'cash') throw badRequest(PAY_AGAIN_TEXT.notOnline);
    const [open] = await db.select().from(payments)
      .where(and(eq(payments.orderId, o.id), inArray(payments.status, ['pending']))).orderBy(desc(payments.id)).limit(1);
    if (open) return { paymentUrl: provider.paymentUrlOf(open.providerRef)! };
    const [merchant] = await db.select({ name: brands.name, currency: currencies.code }).from(brands)
      .innerJoin(currencies, eq(currencies.id, brands.currencyId)).where(eq(brands.id, o.brandId));
    const started = await provider.createPayment({ orderId: o.id, orderNumber: o.orderNumber, amount: o.total, currency: merchant.currency, merchantName: merchant.name });
    await db.insert(payments).values({ orderId: o.id, provider: provider.name, amount: o.total, status: 'pending', providerRef: started.providerRef });
    return { paymentUrl: started.paymentUrl ?? provider.paymentUrlOf(started.providerRef)! };
  });
}
