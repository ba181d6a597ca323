import { randomUUID } from 'node:crypto';
import type { PaymentProvider } from './provider';

const start = () => ({ providerRef: `cash_${randomUUID()}`, paymentUrl: null });

/** Cash at the branch: no payment page; staff mark the order paid when the customer pays. */
export const cashProvider: PaymentProvider = {
  name: 'cash',
  startWithoutOrder: start,
  async createPayment() {
    return start();
  },
  paymentUrlOf: () => null,
};
