import { assign, fromPromise, setup } from 'xstate';
import { DEFAULT_PAYMENT_METHOD_ID, TEXT } from '../domain/constants';
import { phoneProblem } from '../domain/phone';

/**
 * Checkout (SPEC.md 4 "Checkout", 5 "Guest checkout" and "Redirects").
 *
 *   entering ─(empty cart)──────────▶ leftForHome        (goHome: /)
 *      ├─────(not signed in)────────▶ leftForLogin       (goLogin: /login)
 *      ├─────(this cart's order is waiting for its payment)──▶ leftForUnpaidOrder (goToUnpaidOrder: its tracker, Pay again)
 *      └──▶ loading ──▶ editing ─checkout.submit [canSubmit]──▶ submitting
 *                         │  └─checkout.mode delivery, no saved address──▶ leftForLocation (/select-location)
 *                         ▲                                                   │
 *                         ├── isSuccessed false: the server's message ◀───────┤
 *                         └── the call threw: re-enabled, silently ◀──────────┤
 *            redirectingToPayment ◀── unpaid, with a paymentUrl ◀─────────────┤ (go to paymentUrl; the cart is cleared on /track-order)
 *              └─checkout.returned (browser Back, page kept in memory)──▶ leftForUnpaidOrder
 *            leftForUnpaidOrder ◀──── unpaid card order, its payment closed ◀─┤ (a replay after a cancelled payment: Pay again)
 *            placed ◀──────────────── paid, or no paymentUrl (cash) ◀─────────┘ (clear cart, go to /track-order)
 *
 * Pick-up is the default mode and payment method 2 the default method. The guest (user 18) gives
 * a name and a phone. The submit button is enabled by the guard `canSubmit` alone.
 *
 * Idempotency: the first submit of a series makes a key (`startSeries`), and every retry
 * sends the same key, so an order the server saved before the answer was lost is not placed
 * twice. Any change to the order starts a new series (the key would no longer match its body).
 * The series outlives the page (`keepSeries`: the browser keeps it until the cart is cleared,
 * `forgetSeries`): a checkout opened again on the same cart sends the same request with the same
 * key, so the server answers the first order, and once that order was sent to its payment page,
 * the checkout does not open at all: Back from the payment page (a fresh load, or the page kept in
 * memory: `checkout.returned`) leads to that order's tracker, where it can be paid again (issue 21).
 *
 * A free item: a registered customer with free items (earned from the branch's purchases
 * collection) may take one unit of one qualifying cart line free (`checkout.freeItem`); the order
 * then carries that unit as its own line with `redeemItem`, and the server spends the free item.
 *
 * Ports, bound by whoever runs the machine: actors `loadOptions` (payment methods, addresses, the
 * free-item balance and the products a free item may be taken as)
 * and `placeOrder` (isSuccessed false for a refusal with the server's message; a throw for no
 * answer); actions `goHome`, `goLogin`, `goSelectLocation`, `clearCart`, `clearGuestAddress`
 * (the guest's address is cleared after an order), `goToPayment`, `goToTrackOrder`, `showError`.
 */

export type DeliveryMode = 'pickup' | 'carService' | 'delivery';
export interface PaymentMethod { paymentSystemId: number; name: string; isCard: boolean }
/** A saved delivery address (customers), or the guest's temporary one (id 10) kept in the browser. */
export interface CheckoutAddress { id: number; areaId: number; label: string; input?: Record<string, unknown> }
export interface CheckoutLine { productId: number; quantity: number; optionIds: number[] }
export interface PlacedOrder { isSuccessed: boolean; isPaid: boolean; message: string; paymentUrl: string | null; orderId: number | null; ohash: string | null }
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
  /** The customer's free items in the brand (0 for the guest). */
  freeItems?: number;
  /** The products a free item may be taken as at the branch (its active purchases collection's). */
  freeItemProducts?: number[];
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
}

export interface CheckoutContext extends Required<CheckoutInput> {
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
  freeItems: number;
  freeItemProducts: number[];
  /** The cart line (index) one unit of which is taken as a free item, or null. */
  freeItemLine: number | null;
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
  | { type: 'checkout.submit' }
  | { type: 'checkout.retry' }
  /** The page is shown again after the payment page (browser Back to a page kept in memory). */
  | { type: 'checkout.returned' };

/** The guest's name and phone problems, in SPEC.md 5's words (null: fine). */
export function guestNameError(name: string): string | null {
  return name.trim() ? null : TEXT.guest.nameRequired;
}
export function guestPhoneError(phone: string): string | null {
  const problem = phoneProblem(phone);
  return problem === 'missing' ? TEXT.guest.phoneRequired
    : problem === 'notANumber' ? TEXT.guest.invalidNumber
    : problem === 'notAPhone' ? TEXT.guest.invalidPhone
    : null;
}

/** The order request of SPEC.md 3 for Store/SaveNewOrderVS1. The server prices it; no amounts are sent. */
export function orderRequestOf(c: CheckoutContext) {
  const delivery = c.mode === 'delivery';
  const address = delivery ? c.addresses.find((a) => a.id === c.addressId) ?? null : null;
  return {
    brandId: c.brandId,
    paymentSystem: c.paymentMethodId,
    deliverySystem: c.mode,
    guestCustomerName: c.isGuest ? c.guestName.trim() : null,
    guestPhoneNumber: c.isGuest ? c.guestPhone : null,
    specialRemarks: c.remarks?.trim() || null,
    promoCode: c.promotionCode?.trim() || null,
    carId: c.mode === 'carService' ? c.carId : null,
    carDetails: c.mode === 'carService' ? c.carDetails : null,
    // The guest's address is not stored on the server; it travels with the order.
    customerDeliveryAddress: address?.input ?? null,
    deliveryOptions: {
      branchId: c.branchId,
      isPickup: c.mode === 'pickup',
      isCarService: c.mode === 'carService',
      isHomeDeliver: delivery,
      isDeliveryNeed: delivery,
      deliveryAddressId: address && !address.input ? address.id : null,
    },
    products: c.lines.flatMap((l, index) => {
      const line = { productId: l.productId, quantity: l.quantity, redeemItem: false, additions: l.optionIds.map((additionId) => ({ additionId, quantity: 1 })) };
      if (index !== c.freeItemLine) return [line];
      // The free item is one unit on its own line; the rest of the line is paid.
      const free = { ...line, quantity: 1, redeemItem: true };
      return l.quantity > 1 ? [free, { ...line, quantity: l.quantity - 1 }] : [free];
    }),
  };
}
export type OrderRequest = ReturnType<typeof orderRequestOf>;

/** The cart a series was for: what the customer put in it at this branch, before any choice at checkout. */
export const cartSignatureOf = (c: Pick<CheckoutContext, 'brandId' | 'branchId' | 'lines' | 'remarks' | 'promotionCode'>) =>
  JSON.stringify({ brandId: c.brandId, branchId: c.branchId, lines: c.lines, remarks: c.remarks ?? null, promotionCode: c.promotionCode ?? null });

/** The series as kept by the browser now: the request and key just sent, and the order once known. */
const seriesOf = (c: CheckoutContext, order: CheckoutSeries['order'] = null): CheckoutSeries => ({
  cart: cartSignatureOf(c), request: JSON.stringify(orderRequestOf(c)), idempotencyKey: c.idempotencyKey!, order,
});

/** Any edit changes the order: it starts a new idempotency series and clears the last error. */
const edited = <T extends Partial<CheckoutContext>>(patch: T) => ({ ...patch, idempotencyKey: null, error: null });

export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    tags: {} as 'pending',
  },
  actors: {
    loadOptions: fromPromise<CheckoutOptions, { brandId: number; branchId: number; isGuest: boolean }>(async () => {
      throw new Error('loadOptions is not bound');
    }),
    placeOrder: fromPromise<PlacedOrder, { order: OrderRequest; idempotencyKey: string }>(async () => {
      throw new Error('placeOrder is not bound');
    }),
  },
  actions: {
    goHome: () => {},
    goLogin: () => {},
    goSelectLocation: () => {},
    clearCart: () => {},
    clearGuestAddress: () => {},
    goToPayment: (_, _params: { paymentUrl: string; orderId: number | null; ohash: string | null }) => {},
    goToTrackOrder: (_, _params: { orderId: number | null; ohash: string | null }) => {},
    /** To the tracker of an order waiting for its payment ("Payment not completed", Pay again), replacing /check-out. */
    goToUnpaidOrder: (_, _params: { orderId: number; ohash: string | null }) => {},
    showError: (_, _params: { message: string }) => {},
    /** The browser keeps the series (CheckoutSeries) until the cart is cleared. */
    keepSeries: (_, _params: CheckoutSeries) => {},
    forgetSeries: () => {},
    // The key of the series kept for this very request (a checkout opened again on the same cart), else a new one.
    startSeries: assign({
      idempotencyKey: ({ context: c }) => c.idempotencyKey
        ?? (c.series && c.series.request === JSON.stringify(orderRequestOf(c)) ? c.series.idempotencyKey : newIdempotencyKey()),
    }),
  },
  guards: {
    isCartEmpty: ({ context }) => context.lines.length === 0,
    /** This cart was ordered already and sent to its payment page: it is that order's to pay, not a new one's. */
    hasUnpaidOrder: ({ context: c }) => !!c.series?.order && c.series.cart === cartSignatureOf(c),
    isUnauthenticated: ({ context }) => !context.isAuthenticated,
    canSubmit: ({ context: c }) =>
      c.paymentMethodId !== null
      && (!c.isGuest || (!guestNameError(c.guestName) && !guestPhoneError(c.guestPhone)))
      && (c.mode !== 'carService' || c.carId !== null || !!c.carDetails?.trim())
      && (c.mode !== 'delivery' || c.addresses.some((a) => a.id === c.addressId)),
    /** Delivery without a saved address: the customer picks a location first (SPEC.md 5). */
    /** No free item (null), or a qualifying line while the customer has a free item. */
    canTakeFreeItem: ({ context: c, event }) => event.type === 'checkout.freeItem'
      && (event.line === null || (c.freeItems > 0 && c.freeItemProducts.includes(c.lines[event.line]?.productId ?? -1))),
    needsLocation: ({ context, event }) => event.type === 'checkout.mode' && event.mode === 'delivery' && context.addresses.length === 0,
    isUnpaidWithPaymentUrl: (_, o: PlacedOrder) => o.isSuccessed && !o.isPaid && !!o.paymentUrl,
    /** A replay of a card order whose payment was closed (cancelled): it is paid again from its tracker. */
    isUnpaidCardOrder: ({ context: c }, o: PlacedOrder) => o.isSuccessed && !o.isPaid && !o.paymentUrl && o.orderId !== null
      && !!c.paymentMethods.find((m) => m.paymentSystemId === c.paymentMethodId)?.isCard,
    isSuccessful: (_, o: PlacedOrder) => o.isSuccessed,
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    remarks: null, promotionCode: null, addressId: null, ...input,
    mode: input.mode ?? 'pickup', paymentMethods: [], paymentMethodId: DEFAULT_PAYMENT_METHOD_ID, guestName: '', guestPhone: '',
    touched: { name: false, phone: false }, addresses: [], carId: null, carDetails: null, idempotencyKey: null, error: null, order: null,
    freeItems: 0, freeItemProducts: [], freeItemLine: null, series: input.series ?? null,
  }),
  initial: 'entering',
  states: {
    entering: {
      always: [
        { guard: 'isCartEmpty', target: 'leftForHome' },
        { guard: 'isUnauthenticated', target: 'leftForLogin' },
        { guard: 'hasUnpaidOrder', target: 'leftForUnpaidOrder' },
        { target: 'loading' },
      ],
    },
    leftForHome: { entry: 'goHome' },
    leftForLogin: { entry: 'goLogin' },
    leftForLocation: { entry: 'goSelectLocation' },
    leftForUnpaidOrder: {
      entry: { type: 'goToUnpaidOrder', params: ({ context }) => ({ orderId: context.series!.order!.orderId, ohash: context.series!.order!.ohash }) },
    },
    loading: {
      tags: ['pending'],
      invoke: {
        src: 'loadOptions',
        input: ({ context }) => ({ brandId: context.brandId, branchId: context.branchId, isGuest: context.isGuest }),
        onDone: {
          target: 'editing',
          actions: assign(({ context, event }) => {
            const methods = event.output.paymentMethods;
            const addresses = event.output.addresses;
            return {
              paymentMethods: methods,
              paymentMethodId: methods.find((m) => m.paymentSystemId === DEFAULT_PAYMENT_METHOD_ID)?.paymentSystemId ?? methods[0]?.paymentSystemId ?? null,
              addresses,
              addressId: addresses.find((a) => a.id === context.addressId)?.id ?? addresses[0]?.id ?? null,
              // Delivery needs an address; without one, start from pick-up rather than loop to the picker.
              mode: context.mode === 'delivery' && !addresses.length ? 'pickup' : context.mode,
              freeItems: context.isGuest ? 0 : event.output.freeItems ?? 0,
              freeItemProducts: event.output.freeItemProducts ?? [],
            };
          }),
        },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => (event.error as Error)?.message ?? TEXT.genericError }) },
      },
    },
    loadFailed: {
      on: { 'checkout.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    editing: {
      on: {
        'checkout.mode': [
          { guard: 'needsLocation', target: 'leftForLocation' },
          { actions: assign(({ event }) => edited({ mode: event.mode })) },
        ],
        'checkout.payment': { actions: assign(({ event }) => edited({ paymentMethodId: event.paymentSystemId })) },
        'checkout.name': { actions: assign(({ event }) => edited({ guestName: event.value })) },
        'checkout.phone': { actions: assign(({ event }) => edited({ guestPhone: event.value })) },
        'checkout.touch': { actions: assign(({ context, event }) => ({ touched: { ...context.touched, [event.field]: true } })) },
        'checkout.address': { actions: assign(({ event }) => edited({ addressId: event.addressId })) },
        'checkout.car': { actions: assign(({ event }) => edited({ carId: event.carId, carDetails: event.carDetails })) },
        'checkout.freeItem': { guard: 'canTakeFreeItem', actions: assign(({ event }) => edited({ freeItemLine: event.line })) },
        'checkout.submit': {
          guard: 'canSubmit', target: 'submitting',
          actions: ['startSeries', assign({ error: null }), { type: 'keepSeries', params: ({ context }) => seriesOf(context) }],
        },
      },
    },
    submitting: {
      tags: ['pending'],
      invoke: {
        src: 'placeOrder',
        input: ({ context }) => ({ order: orderRequestOf(context), idempotencyKey: context.idempotencyKey! }),
        onDone: [
          {
            guard: { type: 'isUnpaidWithPaymentUrl', params: ({ event }) => event.output },
            target: 'redirectingToPayment',
            actions: [
              assign({ order: ({ event }) => event.output }),
              // Back from the payment page leads to this order (leftForUnpaidOrder), never to a second one.
              assign({ series: ({ context, event }) => seriesOf(context, { orderId: event.output.orderId!, ohash: event.output.ohash }) }),
              { type: 'keepSeries', params: ({ context }) => context.series! },
              // The cart stays until /track-order knows the order (goToPayment marks it for clearing there).
              'clearGuestAddress',
              { type: 'goToPayment', params: ({ event }) => ({ paymentUrl: event.output.paymentUrl!, orderId: event.output.orderId, ohash: event.output.ohash }) },
            ],
          },
          {
            guard: { type: 'isUnpaidCardOrder', params: ({ event }) => event.output },
            target: 'leftForUnpaidOrder',
            actions: [
              assign({ order: ({ event }) => event.output }),
              assign({ series: ({ context, event }) => seriesOf(context, { orderId: event.output.orderId!, ohash: event.output.ohash }) }),
              { type: 'keepSeries', params: ({ context }) => context.series! },
            ],
          },
          {
            guard: { type: 'isSuccessful', params: ({ event }) => event.output },
            target: 'placed',
            actions: [
              assign({ order: ({ event }) => event.output }),
              'clearCart', 'forgetSeries', 'clearGuestAddress',
              { type: 'goToTrackOrder', params: ({ event }) => ({ orderId: event.output.orderId, ohash: event.output.ohash }) },
            ],
          },
          {
            target: 'editing',
            actions: [
              assign({ error: ({ event }) => event.output.message || TEXT.genericError }),
              { type: 'showError', params: ({ event }) => ({ message: event.output.message || TEXT.genericError }) },
            ],
          },
        ],
        // Re-enabled silently (SPEC.md 4); the key is kept, so a retry cannot place a second order.
        onError: { target: 'editing' },
      },
    },
    redirectingToPayment: {
      on: { 'checkout.returned': 'leftForUnpaidOrder' },
    },
    placed: {},
  },
});

/** A random key for one series of submit attempts. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

type Snapshot = { context: CheckoutContext; hasTag(t: 'pending'): boolean; can(e: CheckoutEvent): boolean; matches(v: 'loadFailed' | 'editing'): boolean };

/** Selectors: views read these, never state paths. */
/** The submit button's enabled state: exactly what the guard `canSubmit` allows now. */
export const selectCanSubmit = (s: Snapshot) => s.can({ type: 'checkout.submit' });
export const selectIsPending = (s: Snapshot) => s.hasTag('pending');
export const selectMode = (s: Snapshot) => s.context.mode;
export const selectPaymentMethods = (s: Snapshot) => s.context.paymentMethods;
export const selectPaymentMethodId = (s: Snapshot) => s.context.paymentMethodId;
export const selectGuest = (s: Snapshot) => ({
  isGuest: s.context.isGuest,
  name: s.context.guestName,
  phone: s.context.guestPhone,
  nameError: s.context.touched.name ? guestNameError(s.context.guestName) : null,
  phoneError: s.context.touched.phone ? guestPhoneError(s.context.guestPhone) : null,
});
export const selectAddresses = (s: Snapshot) => s.context.addresses;
export const selectAddressId = (s: Snapshot) => s.context.addressId;
export const selectCar = (s: Snapshot) => ({ carId: s.context.carId, carDetails: s.context.carDetails });
export const selectError = (s: Snapshot) => s.context.error;
/** The free-item choice: the balance, the cart lines (indexes) one of which may be taken free, and the chosen one. */
export const selectFreeItem = (s: Snapshot) => ({
  balance: s.context.freeItems,
  lines: s.context.freeItems > 0 ? s.context.lines.flatMap((l, i) => (s.context.freeItemProducts.includes(l.productId) ? [i] : [])) : [],
  chosen: s.context.freeItemLine,
});
export const selectLoadFailed = (s: Snapshot) => s.matches('loadFailed');
export const selectIsEditing = (s: Snapshot) => s.matches('editing');
