import type { RewardChoice, RewardOptions } from './checkoutRewards';
import type { OrderWhen } from './orderWhen';

/** The checkout machine's types (machines/checkout.ts), apart so the machine reads as its states. */
export type DeliveryMode = 'pickup' | 'carService' | 'delivery';
export interface PaymentMethod { paymentSystemId: number; name: string; isCard: boolean }
/** A saved delivery address (customers), or the guest's temporary one (id 10) kept in the browser. */
export interface CheckoutAddress { id: number; areaId: number; label: string; input?: Record<string, unknown> }
export interface CheckoutLine { productId: number; quantity: number; optionIds: number[] }
export interface PlacedOrder {
  isSuccessed: boolean; isPaid: boolean; message: string; paymentUrl: string | null; orderId: number | null; ohash: string | null;
  /** A refusal because these products (ids) are sold out or unavailable now: their lines are marked, not toasted. */
  soldOut?: number[];
  /** A refusal because the order's time is full or closed (409): the next free time the server offers (ISO), if any. */
  nextTime?: string | null;
}
/**
 * One series of Place order attempts, kept by the browser until the cart is cleared: the cart it
 * was for (`cartSignatureOf`), the request sent (`JSON.stringify(orderRequestOf)`), its key and,
 * once the server answered with a payment page, the order waiting for that payment.
 */
export interface CheckoutSeries {
  cart: string;
  request: string;
  idempotencyKey: string;
  order: { orderId: number; ohash: string | null } | null;
}
export interface CheckoutOptions {
  paymentMethods: PaymentMethod[];
  addresses: CheckoutAddress[];
  /** The customer's points, free items, and what they may pay for (checkoutRewards.ts); none for the guest. */
  points?: number;
  redeemPoints?: Record<number, number>;
  freeItems?: number;
  freeItemProducts?: number[];
  /** The customer's wallet balance in the brand (KD); none for the guest. */
  walletBalance?: number;
}

export interface CheckoutInput {
  isAuthenticated: boolean;
  isGuest: boolean;
  brandId: number;
  branchId: number;
  lines: CheckoutLine[];
  /** From /product-review: kept on the order for the branch; they do not change the price. */
  remarks?: string | null;
  promotionCode?: string | null;
  /** The address chosen earlier (KEYS.addressId), if any. */
  addressId?: number | null;
  /** The mode to start in (back from the address form: delivery); pick-up by default. */
  mode?: DeliveryMode;
  /** The series this browser kept from an earlier checkout (CheckoutSeries), if any. */
  series?: CheckoutSeries | null;
  /** When to start with (a closed branch: "Later", issue 25); as soon as possible by default. */
  when?: OrderWhen;
  /** The guest's name and phone kept from before (back from the address pages, or a reload). */
  guest?: { name: string; phone: string } | null;
}

export interface CheckoutContext extends Required<CheckoutInput>, RewardOptions, RewardChoice {
  mode: DeliveryMode;
  paymentMethods: PaymentMethod[];
  paymentMethodId: number | null;
  guestName: string;
  guestPhone: string;
  touched: { name: boolean; phone: boolean };
  addresses: CheckoutAddress[];
  carId: number | null;
  carDetails: string | null;
  idempotencyKey: string | null;
  error: string | null;
  order: PlacedOrder | null;
  /** Products (ids) sold out or unavailable now: their lines must be removed before Place order. */
  soldOut: number[];
  walletBalance: number;
  /** The wallet pays the whole order (the request's payWithWallet); the payment method is then not used. */
  payWithWallet: boolean;
  /** When the order is for (machines/orderWhen.ts): as soon as possible, or a chosen slot. */
  when: OrderWhen;
  /** The next free time the server offered when the chosen one was full (ISO), until the order changes. */
  nextTime: string | null;
}

export type CheckoutEvent =
  | { type: 'checkout.mode'; mode: DeliveryMode }
  | { type: 'checkout.payment'; paymentSystemId: number }
  | { type: 'checkout.name'; value: string }
  | { type: 'checkout.phone'; value: string }
  | { type: 'checkout.touch'; field: 'name' | 'phone' }
  | { type: 'checkout.address'; addressId: number }
  | { type: 'checkout.car'; carId: number | null; carDetails: string | null }
  | { type: 'checkout.freeItem'; line: number | null }
  /** Pay a cart line's product with points (spend), or with money again. */
  | { type: 'checkout.points'; line: number; spend: boolean }
  /** Pay the whole order from the wallet (use), or with the payment method again. */
  | { type: 'checkout.wallet'; use: boolean }
  /** The cart as it is now (a sold-out line removed) and the products that are sold out. */
  | { type: 'checkout.cart'; lines: CheckoutLine[]; soldOut: number[] }
  /** As soon as possible, or later: a day, then a free slot (machines/orderWhen.ts). */
  | { type: 'checkout.when'; when: OrderWhen }
  | { type: 'checkout.submit' }
  | { type: 'checkout.retry' }
  /** The page is shown again after the payment page (browser Back to a page kept in memory). */
  | { type: 'checkout.returned' };
