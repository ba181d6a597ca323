import { randomUUID } from 'node:crypto';
import type { PaymentProvider } from './provider';

/** Cash at the branch: no payment page; staff mark the order paid when the customer pays. */
export const cashProvider: PaymentProvider = {
  name: 'cash',
  async createPayment() {
    return { providerRef: `cash_${randomUUID()}`, paymentUrl: null };
  },
  paymentUrlOf: () => null,
};
