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
