import { randomUUID } from 'node:crypto';
import type { PaymentProvider } from './provider';

const start = () => ({ providerRef: `cash_${randomUUID()}`, paymentUrl: null });

/**
 * Cash at the branch: no payment page; staff mark the order paid when the customer pays. It has
 * no refund call: a cash refund is recorded as owed at the branch (server/payments/refunds.ts,
 * status 'owed'), and the branch hands the cash back.
 */
export const cashProvider: PaymentProvider = {
  name: 'cash',
  startWithoutOrder: start,
  async createPayment() {
    return start();
  },
  paymentUrlOf: () => null,
};
