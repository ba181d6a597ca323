import { assign, fromPromise, setup } from 'xstate';
import { DEFAULT_PAYMENT_METHOD_ID, TEXT } from '../domain/constants';
import { canSpendPoints, canTakeFreeItem, canUseWallet } from './checkoutRewards';
import { cartSignatureOf, guestNameError, guestPhoneError, orderRequestOf, type OrderRequest } from './checkoutRequest';
import { ASAP, whenIsComplete } from './orderWhen';
import type { CheckoutContext, CheckoutEvent, CheckoutInput, CheckoutOptions, CheckoutSeries, PlacedOrder } from './checkoutTypes';

export type * from './checkoutTypes';
export * from './checkoutSelectors';
export { cartSignatureOf, guestNameError, guestPhoneError, orderRequestOf, type OrderRequest } from './checkoutRequest';

/**
 * Checkout (SPEC.md 4 "Checkout", 5 "Guest checkout" and "Redirects").
 *
 *   entering ─(empty cart)──────────▶ leftForHome        (goHome: /)
 *      ├─────(not signed in)────────▶ leftForLogin       (goLogin: /login)
 *      ├─────(this cart's order is waiting for its payment)──▶ leftForUnpaidOrder (goToUnpaidOrder: its tracker, Pay again)
 *      └──▶ loading ──▶ editing ─checkout.submit [canSubmit]──▶ submitting
 *                         │  └─checkout.mode delivery, no saved address──▶ leftForLocation (/select-location; checkout.returned: loading)
 *                         ▲                                                   │
 *                         ├── isSuccessed false: the server's message ◀───────┤
 *                         └── the call threw: re-enabled, silently ◀──────────┤
 *            redirectingToPayment ◀── unpaid, with a paymentUrl ◀─────────────┤ (go to paymentUrl; the cart is cleared on /track-order)
 *              └─checkout.returned (browser Back, page kept in memory)──▶ leftForUnpaidOrder
 *            leftForUnpaidOrder ◀──── unpaid card order, its payment closed ◀─┤ (a replay after a cancelled payment: Pay again)
 *            placed ◀──────────────── paid, or no paymentUrl (cash) ◀─────────┘ (clear cart, go to /track-order)
 *
 * Pick-up is the default mode and payment method 2 the default method. The guest (user 18) gives
 * a name and a phone. The submit button is enabled by the guard `canSubmit` alone. The page is drawn
 * while the options load, so `loading` already takes the guest's details and the cart's lines
 * (`takenWhileLoading`); the other choices wait for `editing`.
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
 * Points: a line whose product has redeem points may be paid with them (`checkout.points`), never
 * beyond the balance read at loading (machines/checkoutRewards.ts); the server prices and spends them.
 * The wallet: a registered customer with a wallet balance may pay the whole order from it
 * (`checkout.wallet`); the request then says `payWithWallet` and the server prices it, spends it
 * and answers the order paid (or a 400 when the balance does not cover the total).
 * When: as soon as possible or a chosen slot (`checkout.when`, machines/orderWhen.ts); a full one's 409 keeps the next free time (`nextTime`).
 *
 * Ports, bound by whoever runs the machine: actors `loadOptions` (payment methods, addresses, the
 * points and free-item balances, the products' redeem points and the products a free item may be taken as)
 * and `placeOrder` (isSuccessed false for a refusal with the server's message; a throw for no
 * answer); actions `goHome`, `goLogin`, `goSelectLocation`, `clearCart`, `clearGuestAddress`
 * (the guest's address is cleared after an order), `goToPayment`, `goToTrackOrder`, `showError`.
 */

/** The series as kept by the browser now: the request and key just sent, and the order once known. */
const seriesOf = (c: CheckoutContext, order: CheckoutSeries['order'] = null): CheckoutSeries => ({
  cart: cartSignatureOf(c), request: JSON.stringify(orderRequestOf(c)), idempotencyKey: c.idempotencyKey!, order,
});

/** Any edit changes the order: it starts a new idempotency series and clears the last error. */
const edited = <T extends Partial<CheckoutContext>>(patch: T) => ({ ...patch, idempotencyKey: null, error: null, nextTime: null });

const checkoutSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    tags: {} as 'pending',
  },
  actors: {
    loadOptions: fromPromise<CheckoutOptions, { brandId: number; branchId: number; isGuest: boolean; productIds: number[] }>(async () => {
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
    setGuestName: assign(({ event }) => (event.type === 'checkout.name' ? edited({ guestName: event.value }) : {})),
    setGuestPhone: assign(({ event }) => (event.type === 'checkout.phone' ? edited({ guestPhone: event.value }) : {})),
    touch: assign(({ context, event }) => (event.type === 'checkout.touch' ? { touched: { ...context.touched, [event.field]: true } } : {})),
    // Lines changed: the choices made on lines by index start again.
    setLines: assign(({ context, event }) => {
      if (event.type !== 'checkout.cart') return {};
      return cartSignatureOf({ ...context, lines: event.lines }) === cartSignatureOf(context)
        ? { soldOut: event.soldOut }
        : edited({ lines: event.lines, soldOut: event.soldOut, pointsLines: [], freeItemLine: null });
    }),
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
      (c.paymentMethodId !== null || c.payWithWallet) && c.lines.length > 0 && !c.lines.some((l) => c.soldOut.includes(l.productId))
      && (!c.isGuest || (!guestNameError(c.guestName) && !guestPhoneError(c.guestPhone)))
      && (c.mode !== 'carService' || c.carId !== null || !!c.carDetails?.trim())
      && (c.mode !== 'delivery' || c.addresses.some((a) => a.id === c.addressId)) && whenIsComplete(c.when),
    canTakeFreeItem: ({ context: c, event }) => event.type === 'checkout.freeItem' && canTakeFreeItem(c, event.line),
    /** Points on a line only within the balance; giving them up is always allowed for a line that spends them. */
    canChoosePoints: ({ context: c, event }) => event.type === 'checkout.points'
      && (event.spend ? canSpendPoints(c, event.line) : c.pointsLines.includes(event.line)),
    canUseWallet: ({ context: c, event }) => event.type === 'checkout.wallet' && (!event.use || canUseWallet(c)),
    /** Delivery without a saved address: the customer picks a location first (SPEC.md 5). */
    needsLocation: ({ context, event }) => event.type === 'checkout.mode' && event.mode === 'delivery' && context.addresses.length === 0,
    isUnpaidWithPaymentUrl: (_, o: PlacedOrder) => o.isSuccessed && !o.isPaid && !!o.paymentUrl,
    /** A replay of a card order whose payment was closed (cancelled): it is paid again from its tracker. */
    isUnpaidCardOrder: ({ context: c }, o: PlacedOrder) => o.isSuccessed && !o.isPaid && !o.paymentUrl && o.orderId !== null
      && !!c.paymentMethods.find((m) => m.paymentSystemId === c.paymentMethodId)?.isCard,
    isSuccessful: (_, o: PlacedOrder) => o.isSuccessed,
    isSoldOutRefusal: (_, o: PlacedOrder) => !o.isSuccessed && !!o.soldOut?.length,
  },
});

/**
 * What the page offers while the options load (its first screen is drawn before them, issue 24) and
 * takes then as in `editing`: the guest's name and phone, and the cart's lines (a sold-out line
 * removed). Whatever the customer types or removes before the options arrive is kept.
 */
const takenWhileLoading = {
  'checkout.name': { actions: 'setGuestName' },
  'checkout.phone': { actions: 'setGuestPhone' },
  'checkout.touch': { actions: 'touch' },
  'checkout.cart': { actions: 'setLines' },
} as const;

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    remarks: null, promotionCode: null, addressId: null, ...input,
    mode: input.mode ?? 'pickup', paymentMethods: [], paymentMethodId: DEFAULT_PAYMENT_METHOD_ID,
    guest: input.guest ?? null, guestName: input.guest?.name ?? '', guestPhone: input.guest?.phone ?? '',
    touched: { name: false, phone: false }, addresses: [], carId: null, carDetails: null, idempotencyKey: null, error: null, order: null,
    soldOut: [], points: 0, redeemPoints: {}, pointsLines: [], freeItems: 0, freeItemProducts: [], freeItemLine: null, series: input.series ?? null,
    walletBalance: 0, payWithWallet: false, when: input.when ?? ASAP, nextTime: null,
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
    // Shown again without a new page (browser Back to the page React kept while the picker's chunk loaded): start over from loading.
    leftForLocation: { entry: 'goSelectLocation', on: { 'checkout.returned': 'loading' } },
    leftForUnpaidOrder: {
      entry: { type: 'goToUnpaidOrder', params: ({ context }) => ({ orderId: context.series!.order!.orderId, ohash: context.series!.order!.ohash }) },
    },
    loading: {
      tags: ['pending'],
      on: takenWhileLoading,
      invoke: {
        src: 'loadOptions',
        input: ({ context: c }) => ({ brandId: c.brandId, branchId: c.branchId, isGuest: c.isGuest, productIds: [...new Set(c.lines.map((l) => l.productId))] }),
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
              points: context.isGuest ? 0 : event.output.points ?? 0,
              redeemPoints: context.isGuest ? {} : event.output.redeemPoints ?? {},
              freeItems: context.isGuest ? 0 : event.output.freeItems ?? 0,
              freeItemProducts: event.output.freeItemProducts ?? [],
              walletBalance: context.isGuest ? 0 : event.output.walletBalance ?? 0,
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
        ...takenWhileLoading,
        'checkout.address': { actions: assign(({ event }) => edited({ addressId: event.addressId })) },
        'checkout.car': { actions: assign(({ event }) => edited({ carId: event.carId, carDetails: event.carDetails })) },
        'checkout.freeItem': { guard: 'canTakeFreeItem', actions: assign(({ event }) => edited({ freeItemLine: event.line })) },
        'checkout.points': {
          guard: 'canChoosePoints',
          actions: assign(({ context, event }) => edited({ pointsLines: event.spend ? [...context.pointsLines, event.line] : context.pointsLines.filter((i) => i !== event.line) })),
        },
        'checkout.wallet': { guard: 'canUseWallet', actions: assign(({ event }) => edited({ payWithWallet: event.use })) },
        'checkout.when': { actions: assign(({ event }) => edited({ when: event.when })) },
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
            // Sold out since the page opened: the line is marked with its Remove button, no toast.
            guard: { type: 'isSoldOutRefusal', params: ({ event }) => event.output },
            target: 'editing',
            actions: assign({ soldOut: ({ context, event }) => [...new Set([...context.soldOut, ...event.output.soldOut!])] }),
          },
          {
            target: 'editing',
            actions: [
              assign({ error: ({ event }) => event.output.message || TEXT.genericError, nextTime: ({ event }) => event.output.nextTime ?? null }),
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
