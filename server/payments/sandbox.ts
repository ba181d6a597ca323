import { createHash, randomBytes } from 'node:crypto';
import type { AppConfig } from '../http/context';
import type { PaymentProvider, RefundAnswer, RefundAsk } from './provider';

/**
 * The embedded card payment provider (ARCHITECTURE.md "Real parts"): the customer is sent to a
 * small page on this server that shows the amount and the merchant, with Pay and Cancel.
 * Pay marks the payment and the order paid; both return the browser to the shop's /track-order
 * (the page and its two actions: server/payments/sandboxPage.ts).
 */
export const SANDBOX_PATH = '/payments/sandbox';

/**
 * Where the customer's links point: PUBLIC_URL when it is configured; otherwise nothing (a
 * root-relative link), because the listen address (http://localhost:PORT) is often not the origin
 * the customer opened (127.0.0.1, a LAN address, a proxy), and a shop session lives per origin.
 * A relative link can only ever lead to the origin that served the page, so no origin is trusted.
 */
const linkBase = (config: AppConfig) => (config.publicUrlIsListenAddress ? '' : config.publicUrl);

/**
 * A sandbox refund is done at once (no card was charged): the answer is `refunded`, with a refund
 * reference derived from the idempotency key, so asking again under the same key answers the same
 * refund and never a second one.
 */
const sandboxRefund = async (ask: RefundAsk): Promise<RefundAnswer> => ({
  status: 'refunded', refundRef: `sbx_rf_${createHash('sha256').update(ask.key).digest('base64url').slice(0, 24)}`, message: null,
});

export function sandboxProvider(config: AppConfig): PaymentProvider & { refund: typeof sandboxRefund; refundStatus: typeof sandboxRefund } {
  const urlOf = (ref: string) => `${linkBase(config)}${SANDBOX_PATH}/${encodeURIComponent(ref)}`;
  const start = () => {
    const providerRef = `sbx_${randomBytes(18).toString('base64url')}`;
    return { providerRef, paymentUrl: urlOf(providerRef) };
  };
  return {
    name: 'sandbox',
    startWithoutOrder: start,
    async createPayment() {
      return start();
    },
    paymentUrlOf: urlOf,
    refund: sandboxRefund,
    refundStatus: sandboxRefund,
  };
}

/** The shop's order tracking page for an order, with `payment=cancelled` when it was not paid. */
export function trackOrderUrl(config: AppConfig, p: { orderId: number; ohash: string; status: string }) {
  const q = new URLSearchParams({ orderId: String(p.orderId), ohash: p.ohash });
  if (p.status !== 'paid') q.set('payment', 'cancelled');
  return `${linkBase(config)}/track-order?${q}`;
}
