import { Type, type Static } from 'typebox';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import { Obj } from '../http/envelope';

/**
 * What KNET certification asks a receipt to show (issue 21): date and time, result, amount,
 * payment id and track id, as the provider's status inquiry gave them (server/payments/settle.ts).
 */
export const PaymentReceipt = Obj('PaymentReceipt', {
  /** When the provider says it was paid; null when it was not (then `at` is when it was last asked). */
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
  result: Type.String({ description: "The provider's result: CAPTURED, NOT CAPTURED…" }),
  amount: Type.Number(),
  paymentId: Type.Union([Type.String(), Type.Null()]),
  trackId: Type.Union([Type.String(), Type.Null()]),
});
export type PaymentReceiptValue = Static<typeof PaymentReceipt>;

/** The receipt of an order's latest payment the provider answered about; null when none was (cash, the sandbox, not asked yet). */
export async function receiptOf(db: Db, orderId: number): Promise<PaymentReceiptValue | null> {
  const [p] = await db.select().from(payments).where(and(eq(payments.orderId, orderId), isNotNull(payments.result)))
    .orderBy(desc(payments.id)).limit(1);
  if (!p) return null;
  return {
    paidAt: p.status === 'paid' && p.paidAt ? p.paidAt.toISOString() : null,
    at: (p.paidAt ?? p.checkedAt ?? p.updatedAt).toISOString(),
    result: p.result!, amount: Number(p.amount), paymentId: p.providerPaymentId, trackId: p.trackId,
  };
}
