/** What a payment provider is told about an order it is asked to collect. */
export interface PaymentOrder {
  orderId: number;
  orderNumber: string;
  /** Decimal with 3 places, e.g. "1.250". */
  amount: string;
  currency: string;
  merchantName: string;
}

export interface StartedPayment {
  /** The provider's reference for this payment; unique (payments.provider_ref). */
  providerRef: string;
  /** Where the customer's browser goes to pay; null when nothing is paid online (cash at the branch). */
  paymentUrl: string | null;
}

/**
 * The port every payment provider adapter implements (payment_systems.provider names the adapter).
 * createPayment must not charge anything by itself: the customer pays on the provider's page, and
 * the provider's confirmation marks the order paid.
 */
export interface PaymentProvider {
  readonly name: string;
  createPayment(order: PaymentOrder): Promise<StartedPayment>;
  /**
   * Only for a provider that is told nothing about the order (cash, the sandbox): its payment,
   * started here without a call out, before the order has an id. The new order's statement then
   * takes its id itself, one round trip fewer (saveOrder.ts). A provider without it is told the
   * order's id and number, taken first.
   */
  startWithoutOrder?(): StartedPayment;
  /** The paymentUrl of a payment already started, so that a replayed order request answers the same. */
  paymentUrlOf(providerRef: string): string | null;
}

/**
 * What a provider says about a payment when asked (its status inquiry). Never trusted from the
 * browser's return or a callback alone: an order is marked paid only on `paid` from here.
 */
export interface PaymentInquiry {
  status: 'paid' | 'failed' | 'pending';
  /** Decimal with 3 places: what the provider captured (a paid answer for another amount is not accepted). */
  amount: string | null;
  /** The provider's own ids, kept for reconciliation and the receipt (KNET: payment id, track id). */
  paymentId: string | null;
  trackId: string | null;
  /** When the provider says it was paid. */
  paidAt: Date | null;
  /** The provider's result text (e.g. 'CAPTURED', 'NOT CAPTURED'), for staff and the receipt. */
  result: string | null;
}

/** A refund asked of the provider: full or partial, never more than captured; `key` makes a retry safe. */
export interface RefundAsk {
  providerRef: string;
  /** The provider's payment id of the captured payment (from its inquiry), where its refund call needs it. */
  paymentId: string | null;
  /** Decimal with 3 places. */
  amount: string;
  currency: string;
  /** Unique per refund: the provider (or we, for one without idempotency) refuses to refund twice under it. */
  key: string;
  reason: string;
}

export interface RefundAnswer {
  status: 'refunded' | 'pending' | 'failed';
  /** The provider's refund reference, when it gives one. */
  refundRef: string | null;
  /** Why it failed or is pending, in the provider's words. */
  message: string | null;
}

/** The parts of a provider that take real money online (MyFatoorah, Tap, the sandbox). Cash has none. */
export interface OnlinePaymentProvider extends PaymentProvider {
  /** The provider's status inquiry for a payment we started. */
  inquire(providerRef: string): Promise<PaymentInquiry>;
  /** Asks the provider to refund; a refund still `pending` is asked about again with `refundStatus`. */
  refund(ask: RefundAsk): Promise<RefundAnswer>;
  refundStatus(ask: RefundAsk, refundRef: string | null): Promise<RefundAnswer>;
}
