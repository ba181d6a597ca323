import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { customerWallets } from '../db/schema';
import type { PaymentProvider, StartedPayment } from '../payments/provider';
import { toFils, type Fils } from '../../domain/money';
import { orderLedgerKey, postToLedger } from './ledger';

/**
 * Paying an order from the customer's brand wallet (issue 24; docs/decisions.md "Paying with the
 * wallet"). The order request says `payWithWallet`; the server prices the order as always and the
 * wallet pays the whole total or nothing: the order carries the Wallet payment method (id 8,
 * provider 'wallet', migration 0048), its payment row is paid when written, and the ledger's
 * conditional update spends the balance in the order's transaction (`order:<id>:wallet-spent`), so
 * two orders at once cannot spend the same money and a replayed request spends once. Giving it
 * back (a rejection, an approved refund) is a refund record of provider 'wallet' that settles at
 * once by a ledger credit (server/payments/refunds.ts → returnToWallet).
 */
export const WALLET_PROVIDER = 'wallet';

const started = (): StartedPayment => ({ providerRef: `wallet_${randomUUID()}`, paymentUrl: null });

/** The wallet as a payment provider: nothing to call and no page to visit; the ledger moves the money. */
export const walletPayment: PaymentProvider = {
  name: WALLET_PROVIDER,
  createPayment: async () => started(),
  startWithoutOrder: started,
  paymentUrlOf: () => null,
};

/** The customer's wallet balance in a brand, in fils (0 without a wallet row). */
export async function walletBalanceOf(db: Db | Tx, userId: number, brandId: number): Promise<Fils> {
  const [row] = await db.select({ balance: customerWallets.balance }).from(customerWallets)
    .where(and(eq(customerWallets.userId, userId), eq(customerWallets.brandId, brandId)));
  return toFils(row?.balance ?? 0);
}

/** Spends the order's total from the wallet, in the order's transaction; not enough is the 400 `refusal` (nothing is written). */
export function spendWallet(tx: Db | Tx, o: { id: number; orderNumber: string; userId: number; brandId: number }, amount: Fils, refusal: string) {
  return postToLedger(tx, {
    userId: o.userId, brandId: o.brandId, account: 'wallet', amount: -amount / 1000, reason: `Paid order ${o.orderNumber} from the wallet`,
    reference: { type: 'order', id: o.id }, createdBy: o.userId, key: orderLedgerKey(o.id, 'wallet-spent'), refusal,
  });
}

/**
 * Puts a wallet order's refund back in the wallet, in the refund record's transaction. The first
 * refund of an order is `order:<id>:wallet-returned`; a later one of the same order (an approved
 * part refund, then a rejection) is keyed by its refund row too, so each is credited once.
 */
export function returnToWallet(tx: Db | Tx, o: { id: number; orderNumber: string; userId: number; brandId: number }, refund: { id: number; amount: string }, first: boolean) {
  return postToLedger(tx, {
    userId: o.userId, brandId: o.brandId, account: 'wallet', amount: Number(refund.amount), reason: `Refund of order ${o.orderNumber} to the wallet`,
    reference: { type: 'order', id: o.id }, createdBy: null, key: orderLedgerKey(o.id, first ? 'wallet-returned' : `wallet-returned-${refund.id}`),
  });
}
