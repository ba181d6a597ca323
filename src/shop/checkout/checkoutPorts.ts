import { fromPromise } from 'xstate';
import type { Gateway } from '../../lib/gateway';
import { navigate } from 'wouter/use-browser-location';
import { CARD_PAYMENT_LABEL, GUEST_USER_ID } from '../../../domain/constants';
import { checkoutMachine, type CheckoutAddress, type PaymentMethod, type PlacedOrder } from '../../../machines/checkout';
import { graphql } from '../../gql';
import { apiErrorOf, errorMessage, statusOf } from '../../lib/errors';
import { notifyError } from '../../lib/notify';
import { t } from '../../i18n';
import '../../i18n/screens';
import { storage, KEYS } from '../../lib/storage';
import { forgetAddress, latestAddress } from '../address/addressStorage';
import { addressLabel } from '../address/addressText';
import { externalNavigation } from './externalNavigation';
import { forgetSeries, keepSeries } from './checkoutSeries';
import { forgetGuest } from './guestDetails';

export const CheckoutPaymentMethods = graphql(`
  query CheckoutPaymentMethods($brandId: Int) {
    Store_GetStorePaymentSystemTypesForTopUpV2ForMangoes(brandId: $brandId) { paymentSystemId name isCard isDefault }
  }
`);

export const CheckoutAddresses = graphql(`
  query CheckoutAddresses($userId: Int!) {
    CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId(userId: $userId) { id areaId area region block street house_no }
  }
`);

/** What points, a free item and the wallet can pay for at checkout: the customer's balances and the branch's purchases collection. */
export const CheckoutFreeItems = graphql(`
  query CheckoutFreeItems($brandId: Int, $branchId: Int!) {
    customer: Customer_GetCurrentCustomerDetails(brandId: $brandId) { id freeItems points balance }
    programs: RewardPrograms_GetBranchActualRewardProgramsByBranchIdForUser(branchId: $branchId) { id kind productIds }
  }
`);

/** A cart product's redeem points (null: it cannot be paid with points), from the product call the product page makes. */
export const CheckoutRedeemPoints = graphql(`
  query CheckoutRedeemPoints($productid: Int!, $branchId: Int) {
    ProductTypesAndSubtypes_GetProductItemWithSubItemDictionarywithProduct(productid: $productid, branchId: $branchId) { id redeemPoints }
  }
`);

export const PlaceOrder = graphql(`
  mutation PlaceOrder($input: SaveNewOrderInput_Input, $key: String) {
    Store_SaveNewOrderVS1(input: $input, idempotency_key: $key) { isSuccessed isPaid message paymentUrl orderId orderNumber ohash total }
  }
`);


/** Remembers the order placed in this browser, so /track can find it again (the guest has no history). */
export function rememberOrder(order: { orderId: number | null; ohash: string | null }, clearCartWhenShown = false) {
  if (order.orderId && order.ohash) storage.setJson(KEYS.lastOrder, { orderId: order.orderId, ohash: order.ohash, ...(clearCartWhenShown && { clearCartWhenShown }) });
}

export const trackOrderHref = (o: { orderId: number | null; ohash: string | null }, payment?: 'notCompleted') =>
  `/track-order?${new URLSearchParams({ orderId: String(o.orderId ?? ''), ohash: o.ohash ?? '', ...(payment && { payment }) })}`;

/**
 * The checkout machine's ports bound to the gateway, the browser and the cart. The options are read
 * as plain POSTs while Apollo is not loaded yet (src/lib/gateway.tsx), so the checkout never waits for it.
 * placeOrder answers a refusal by the server (a 4xx with its message) as isSuccessed false, so the
 * customer reads it; no answer at all (network, 5xx) is a throw, which re-enables silently.
 */
export function provideCheckout(gateway: Gateway, opts: { userId: number | null; clearCart(): void }) {
  const isGuest = opts.userId === GUEST_USER_ID;
  return checkoutMachine.provide({
    actors: {
      loadOptions: fromPromise(async ({ input }) => {
        const signedIn = !input.isGuest && !!opts.userId;
        const [methods, saved, free, redeem] = await Promise.all([
          gateway.query(CheckoutPaymentMethods, { brandId: input.brandId }, { silent: true }, 'network-only'),
          !input.isGuest && opts.userId
            ? gateway.query(CheckoutAddresses, { userId: opts.userId }, { silent: true }, 'network-only')
            : null,
          // Free items are a nicety: if they cannot be read, the checkout goes on without offering one.
          !input.isGuest && opts.userId
            ? gateway.query(CheckoutFreeItems, { brandId: input.brandId, branchId: input.branchId }, { silent: true }, 'network-only').catch(() => null)
            : null,
          // So are points: a product that cannot be read is not offered for points.
          Promise.all((signedIn ? input.productIds : []).map((productid) =>
            gateway.query(CheckoutRedeemPoints, { productid, branchId: input.branchId }, { silent: true })
              .then((r) => r?.ProductTypesAndSubtypes_GetProductItemWithSubItemDictionarywithProduct ?? null, () => null))),
        ]).catch((e) => { throw new Error(errorMessage(e, t('errors.checkoutFailed'))); });
        const paymentMethods: PaymentMethod[] = (methods?.Store_GetStorePaymentSystemTypesForTopUpV2ForMangoes ?? [])
          .filter((m): m is NonNullable<typeof m> => !!m)
          .map((m) => ({ paymentSystemId: m.paymentSystemId, name: m.isCard ? CARD_PAYMENT_LABEL : m.name, isCard: m.isCard }));
        let addresses: CheckoutAddress[] = (saved?.CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId ?? [])
          .filter((a): a is NonNullable<typeof a> => !!a)
          .map((a) => ({ id: a.id, areaId: a.areaId, label: addressLabel(a) }));
        // The guest's (temporary) address lives in the browser and travels with the order.
        const temp = latestAddress();
        if (temp?.temporary && temp.areaId) {
          const { id: _id, temporary: _t, ...fields } = temp;
          addresses = [...addresses, { id: temp.id, areaId: temp.areaId, label: addressLabel(temp), input: fields as unknown as Record<string, unknown> }];
        }
        const purchases = (free?.programs ?? []).find((p) => p?.kind === 'purchases');
        return {
          paymentMethods, addresses,
          points: free?.customer?.points ?? 0,
          redeemPoints: Object.fromEntries(redeem.flatMap((p) => (p && typeof p.redeemPoints === 'number' ? [[p.id, p.redeemPoints]] : []))),
          freeItems: free?.customer?.freeItems ?? 0,
          freeItemProducts: (purchases?.productIds ?? []).filter((id): id is number => typeof id === 'number'),
          walletBalance: free?.customer?.balance ?? 0,
        };
      }),
      placeOrder: fromPromise(async ({ input }): Promise<PlacedOrder> => {
        try {
          // The key goes as the Idempotency-Key header (.meshrc.yaml forwards it) and as the declared argument.
          const res = await gateway.mutate(PlaceOrder, { input: input.order, key: input.idempotencyKey },
            { silent: true, headers: { 'Idempotency-Key': input.idempotencyKey } });
          const out = res?.Store_SaveNewOrderVS1;
          if (!out) throw new Error('No answer');
          return { isSuccessed: out.isSuccessed, isPaid: out.isPaid, message: out.message, paymentUrl: out.paymentUrl ?? null, orderId: out.orderId, ohash: out.ohash };
        } catch (e) {
          const status = statusOf(e);
          // The server answered and refused the order: not successful, with its message.
          const abp = apiErrorOf(e)?.abp;
          if (abp && status !== null && status >= 400 && status < 500 && status !== 401) {
            // A line the server names (`products[i]`, planOrder.ts SOLD_OUT_MEMBER) is sold out: the checkout marks it.
            const soldOut = (abp.validationErrors ?? []).flatMap((v) => v.members ?? [])
              .flatMap((m) => { const i = /^products\[(\d+)\]$/.exec(m)?.[1]; const p = i === undefined ? undefined : input.order.products[Number(i)]; return p ? [p.productId] : []; });
            // The order's time is full or closed (409): the server names the next free time (its details), the checkout offers it.
            const nextTime = status === 409 && typeof abp.details === 'string' ? abp.details : null;
            return { isSuccessed: false, isPaid: false, message: errorMessage(e), paymentUrl: null, orderId: null, ohash: null, soldOut, nextTime };
          }
          throw e;
        }
      }),
    },
    actions: {
      goHome: () => navigate('/', { replace: true }),
      goLogin: () => navigate('/login?next=/check-out', { replace: true }),
      goSelectLocation: () => navigate(`/select-location?address=${isGuest ? 'guest_checkout' : 'user_checkout'}`),
      clearCart: () => opts.clearCart(),
      // SPEC.md 4: the guest's stored address data is cleared after an order.
      clearGuestAddress: () => { if (isGuest) { forgetAddress(); forgetGuest(); } },
      goToPayment: (_, p) => { rememberOrder(p, true); externalNavigation.assign(p.paymentUrl); },
      goToTrackOrder: (_, p) => { rememberOrder(p); navigate(trackOrderHref(p)); },
      // The tracker takes /check-out's place in the history: Back from it does not open the checkout again.
      goToUnpaidOrder: (_, p) => { rememberOrder(p, true); navigate(trackOrderHref(p, 'notCompleted'), { replace: true }); },
      keepSeries: (_, series) => keepSeries(series),
      forgetSeries,
      showError: (_, p) => notifyError(p.message),
    },
  });
}
