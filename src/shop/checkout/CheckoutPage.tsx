import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useActorRef, useSelector } from '@xstate/react';
import { graphql } from '../../gql';
import type { QuoteOrderMutation } from '../../gql/graphql';
import { useGateway, useGatewayQuery } from '../../lib/gateway';
import { money, t, translateMessage, type TextKey } from '../../i18n';
import { DEFAULT_PAYMENT_METHOD_ID } from '../../../domain/constants';

import {
  selectAddresses, selectAddressId, selectCanSubmit, selectCar, selectError, selectGuest, selectIsEditing, selectIsPending,
  selectLoadFailed, selectMode, selectNextTime, selectWhen, selectPaymentMethodId, selectPaymentMethods, selectSoldOut, selectWallet, selectLeftForLocation, orderRequestOf, type DeliveryMode,
} from '../../../machines/checkout';
import { useSession } from '../../lib/session';
import { storage, KEYS } from '../../lib/storage';
import { Loading } from '../../common/Loading';
import { PhoneInput } from '../components/PhoneInput';
import { CartLines, CartTotal } from '../cart/CartLines';
import { useBranchChange, useCart, useOrderNotes, useShop } from '../shopContext';
import { selectBrands } from '../../../machines/branchChange';
import { PriceCheck } from './PriceCheck';
import { CarPicker } from './CarPicker';
import { provideCheckout } from './checkoutPorts';
import { keptSeries } from './checkoutSeries';
import { FreeItemChoice } from './FreeItemChoice';
import { PointsChoice } from './PointsChoice';
import { WalletChoice } from './WalletChoice';
import { errorMessage } from '../../lib/errors';
import { keepGuest, keptGuest } from './guestDetails';
import { useCartAvailability } from '../cart/availability';
import { SignedMoney } from '../components/SignedMoney';
import { OrderTimeChoice } from './OrderTimeChoice';
import { orderDayTime } from '../orderTimeText';
import { ASAP, laterAt, laterOn, orderDays } from '../../../machines/orderWhen';
import { chooseWhen, menuAt, useChosenWhen } from '../chosenWhen';
import { branchClock, orderingAt, useChosenBranch } from '../branch/ordering';

export const CheckoutDeliveryFee = graphql(`
  query CheckoutDeliveryFee($brandId: Int!, $areaId: Int!, $amount: Float) {
    BrandDeliveryFee_GetDeliveryFeeForOrderingCustomer(BrandId: $brandId, AreaId: $areaId, Amount: $amount) { deliveryFee isFree freeAboveAmount }
  }
`);

/** The amount to pay as the server will charge it (planOrder, nothing saved): Store/QuoteOrder. */
export const QuoteOrder = graphql(`
  mutation QuoteOrder($input: SaveNewOrderInput_Input) {
    Store_QuoteOrder(input: $input) { subtotal discount tax deliveryFee total points wallet readyMinutes }
  }
`);

const MODES: { mode: DeliveryMode; label: TextKey; hint: TextKey }[] = [
  { mode: 'pickup', label: 'checkout.pickup', hint: 'checkout.pickupHint' },
  { mode: 'carService', label: 'checkout.carService', hint: 'checkout.carServiceHint' },
  { mode: 'delivery', label: 'checkout.delivery', hint: 'checkout.deliveryHint' },
];

type Quote = NonNullable<QuoteOrderMutation['Store_QuoteOrder']>;

/**
 * /check-out (customers only; the guest is user 18): mode, payment method, the guest's name and phone, then the order.
 * Its first screen draws without Apollo (issue 24, Lighthouse): while the machine loads its options the page
 * is already there (the heading, the modes, the cart's lines from storage, placeholders as tall as what
 * replaces them), and every read goes through the gateway's plain POST until Apollo is loaded.
 */
export default function CheckoutPage() {
  const gateway = useGateway();
  const session = useSession();
  const shop = useShop();
  const cart = useCart();
  const { notes, clearNotes } = useOrderNotes();
  const search = new URLSearchParams(useSearch());
  const linesOf = (items: typeof cart.items) => items.map((i) => ({ productId: i.product.id, quantity: i.product.Quantity, optionIds: i.selected_options.map((o) => o.id) }));
  const machine = useMemo(
    () => provideCheckout(gateway, { userId: session.profile?.id ?? null, clearCart: () => { cart.send({ type: 'cart.clear' }); clearNotes(); chooseWhen(ASAP); } }),
    [gateway], // eslint-disable-line react-hooks/exhaustive-deps
  );
  // A branch closed now takes orders for later only: the checkout starts at "Later", today (issue 25).
  const closedNow = !orderingAt(useChosenBranch()).open;
  const chosenWhen = useChosenWhen();
  const ref = useActorRef(machine, {
    input: {
      isAuthenticated: session.isAuthenticated,
      isGuest: session.isGuest,
      brandId: shop.brandId,
      branchId: shop.branchId,
      lines: linesOf(cart.items),
      remarks: notes.remarks,
      promotionCode: notes.promotionCode,
      addressId: Number(storage.get(KEYS.addressId)) || null,
      mode: search.get('mode') === 'delivery' ? 'delivery' : undefined,
      series: keptSeries(),
      guest: session.isGuest ? keptGuest() : null,
      when: closedNow && !chosenWhen.later ? laterOn(orderDays(new Date())[0]!) : chosenWhen,
    },
  });
  // Back from the payment page to this page kept in memory (bfcache): it leads to the order, not to a second one.
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => { if (e.persisted) ref.send({ type: 'checkout.returned' }); };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, [ref]);
  // Back from the location picker to this very page: React may keep it (hidden while the picker's chunk
  // loaded) rather than mount it again, so the machine is still at leftForLocation; it starts over.
  const [location] = useLocation();
  const leftForLocation = useSelector(ref, selectLeftForLocation);
  useEffect(() => { if (leftForLocation && location === '/check-out') ref.send({ type: 'checkout.returned' }); }, [ref, leftForLocation, location]);
  const pending = useSelector(ref, selectIsPending);
  const editing = useSelector(ref, selectIsEditing);
  const loadFailed = useSelector(ref, selectLoadFailed);
  const mode = useSelector(ref, selectMode);
  const methods = useSelector(ref, selectPaymentMethods);
  const methodId = useSelector(ref, selectPaymentMethodId);
  const guest = useSelector(ref, selectGuest);
  const addresses = useSelector(ref, selectAddresses);
  const addressId = useSelector(ref, selectAddressId);
  const car = useSelector(ref, selectCar);
  const canSubmit = useSelector(ref, selectCanSubmit);
  const error = useSelector(ref, selectError);
  // The cart as it is now (a sold-out line removed here) and what cannot be ordered: the machine holds Place order until it is removed.
  // At the order's time; the checkout's choice is the shop's (the menu and the cart read at it too).
  const checkoutWhen = useSelector(ref, selectWhen);
  useEffect(() => { chooseWhen(checkoutWhen); }, [checkoutWhen]);
  const availability = useCartAvailability(cart.items, shop.brandId, shop.branchId, menuAt(checkoutWhen));
  const soldOut = useSelector(ref, selectSoldOut);
  // Sent whenever it changes (the machine takes it while loading its options too) and again on (re-)entering editing.
  useEffect(() => {
    ref.send({ type: 'checkout.cart', lines: linesOf(cart.items), soldOut: [...new Set([...availability.soldOut, ...soldOut])] });
  }, [cart.items, availability.soldOut.join(), editing]); // eslint-disable-line react-hooks/exhaustive-deps
  // The guest's name and phone outlive the address pages and a reload (guestDetails.ts).
  useEffect(() => { if (guest.isGuest) keepGuest({ name: guest.name, phone: guest.phone }); }, [guest.isGuest, guest.name, guest.phone]);
  const brands = useSelector(useBranchChange(), selectBrands);
  const branch = brands.find((b) => b.id === shop.brandId)?.branches.find((b) => b.id === shop.branchId);
  const address = addresses.find((a) => a.id === addressId);
  const fee = useGatewayQuery(CheckoutDeliveryFee, {
    variables: { brandId: shop.brandId, areaId: address?.areaId ?? 0, amount: cart.total },
    skip: mode !== 'delivery' || !address,
    context: { silent: true },
  });
  const quote = fee.data?.BrandDeliveryFee_GetDeliveryFeeForOrderingCustomer;
  // Once the order is complete, the server prices it (fee, tax, discounts) before Place order.
  const request = useSelector(ref, (s) => JSON.stringify(orderRequestOf(s.context)));
  // The quote saves nothing and no screen watches it: a plain POST until Apollo is here (Gateway.ask).
  const [priced, setPriced] = useState<{ request: string; quote?: Quote; error?: unknown } | null>(null);
  useEffect(() => {
    if (!canSubmit) return;
    let live = true;
    gateway.ask(QuoteOrder, { input: JSON.parse(request) }, { silent: true }).then(
      (d) => { if (live) setPriced({ request, quote: d?.Store_QuoteOrder ?? undefined }); },
      (error: unknown) => { if (live) setPriced({ request, error }); },
    );
    return () => { live = false; };
  }, [request, canSubmit]); // eslint-disable-line react-hooks/exhaustive-deps
  // The answer for the order as it is now; none while a changed order is being priced.
  const answered = canSubmit && priced?.request === request ? priced : null;
  const serverTotal = answered?.quote;
  const byWallet = useSelector(ref, (s) => selectWallet(s).chosen);
  const when = useSelector(ref, selectWhen);
  // The chosen time was full: the server's next free time, placed with one click (a new request, so a new key).
  const nextTime = useSelector(ref, selectNextTime);

  if (loadFailed) {
    return (
      <section className="shop-section">
        <h1 className="shop-title">{t('checkout.title')}</h1>
        <p className="shop-error" role="alert">{translateMessage(error)}</p>
        <button type="button" className="shop-button" onClick={() => ref.send({ type: 'checkout.retry' })}>{t('checkout.tryAgain')}</button>
      </section>
    );
  }
  if (!editing && !pending) return <Loading label={t('checkout.loading')} />;
  // Loading the options: the page as it will be, its choices not yet offered.
  const loading = !editing && methods.length === 0;
  const locationHref = `/select-location?address=${guest.isGuest ? 'guest_checkout' : 'user_checkout'}`;

  return (
    <div className="checkout" aria-busy={loading || undefined}>
      {loading && <p className="visually-hidden" role="status">{t('checkout.loadingCheckout')}</p>}
      <div className="checkout__main">
        <h1 className="shop-title">{t('checkout.title')}</h1>

        <section className="shop-card" aria-labelledby="mode-title">
          <h2 id="mode-title" className="shop-card__title">{t('checkout.how')}</h2>
          <div className="segmented" role="radiogroup" aria-labelledby="mode-title">
            {MODES.map((m) => (
              <label key={m.mode} className={`segmented__option${mode === m.mode ? ' is-chosen' : ''}`}>
                <input type="radio" name="mode" value={m.mode} checked={mode === m.mode} disabled={!editing}
                  onChange={() => ref.send({ type: 'checkout.mode', mode: m.mode })} />
                <strong>{t(m.label)}</strong>
                <span className="shop-muted">{t(m.hint)}</span>
              </label>
            ))}
          </div>
          {mode === 'pickup' && branch && <p className="checkout__where">{t('checkout.pickUpAt')} <strong>{branch.name}</strong>{branch.branchAddress ? `${t('product.listSeparator')}${branch.branchAddress}` : ''}.</p>}
          {mode === 'carService' && (
            <CarPicker canSave={!guest.isGuest} carId={car.carId} onChange={(c) => ref.send({ type: 'checkout.car', ...c })} />
          )}
          {mode === 'delivery' && (
            <div className="checkout__delivery">
              <fieldset className="choice-list">
                <legend>{t('checkout.deliverTo')}</legend>
                {addresses.map((a) => (
                  <label key={a.id} className={`choice${addressId === a.id ? ' is-chosen' : ''}`}>
                    <input type="radio" name="address" checked={addressId === a.id} onChange={() => ref.send({ type: 'checkout.address', addressId: a.id })} />
                    <span>{a.label}</span>
                  </label>
                ))}
              </fieldset>
              <Link href={locationHref} className="shop-link">{t('checkout.addAddress')}</Link>
              {quote && <p className="checkout__fee">{t('checkout.deliveryFee')}: <strong>{quote.isFree ? t('checkout.free') : money(quote.deliveryFee, shop.currency)}</strong></p>}
              {!!fee.error && <p className="shop-error" role="alert">{t('checkout.noDelivery')}</p>}
            </div>
          )}
        </section>

        <OrderTimeChoice checkout={ref} branchId={shop.branchId} mode={mode} disabled={!editing} />

        {guest.isGuest && (
          <section className="shop-card" aria-labelledby="guest-title">
            <h2 id="guest-title" className="shop-card__title">{t('checkout.yourDetails')}</h2>
            <div className={`field${guest.nameError ? ' has-error' : ''}`}>
              <label htmlFor="guest-name">{t('checkout.name')}</label>
              <input id="guest-name" autoComplete="name" value={guest.name} maxLength={100}
                onChange={(e) => ref.send({ type: 'checkout.name', value: e.target.value })}
                onBlur={() => ref.send({ type: 'checkout.touch', field: 'name' })}
                aria-invalid={guest.nameError ? true : undefined} aria-describedby={guest.nameError ? 'guest-name-error' : undefined} />
              {guest.nameError && <p className="field__error" id="guest-name-error" role="alert">{translateMessage(guest.nameError)}</p>}
            </div>
            <PhoneInput id="guest-phone" label={t('checkout.phone')} value={guest.phone} error={translateMessage(guest.phoneError)}
              onChange={(value) => ref.send({ type: 'checkout.phone', value })}
              onBlur={() => ref.send({ type: 'checkout.touch', field: 'phone' })} />
          </section>
        )}

        <section className="shop-card" aria-labelledby="pay-title">
          <h2 id="pay-title" className="shop-card__title">{t('checkout.payment')}</h2>
          <WalletChoice checkout={ref} total={serverTotal?.total ?? null} currency={shop.currency} disabled={!editing} />
          <div className="choice-list" role="radiogroup" aria-labelledby="pay-title">
            {methods.map((m) => (
              <label key={m.paymentSystemId} className={`choice${!byWallet && methodId === m.paymentSystemId ? ' is-chosen' : ''}`}>
                <input type="radio" name="payment" value={m.paymentSystemId} checked={!byWallet && methodId === m.paymentSystemId} disabled={byWallet}
                  onChange={() => ref.send({ type: 'checkout.payment', paymentSystemId: m.paymentSystemId })} />
                <span>{mode === 'delivery' && !m.isCard && m.paymentSystemId === DEFAULT_PAYMENT_METHOD_ID ? t('checkout.cashOnDelivery') : translateMessage(m.name)}</span>
              </label>
            ))}
            {loading && <span className="checkout__methods-placeholder" aria-hidden="true" />}
            {!loading && methods.length === 0 && !byWallet && <p className="shop-muted">{t('checkout.noPayment')}</p>}
          </div>
        </section>
      </div>

      <aside className="shop-card checkout__summary" aria-label={t('checkout.summary')}>
        <h2 className="shop-card__title">{t('checkout.yourOrder')}</h2>
        <PriceCheck answer={availability.answer} />
        <CartLines items={cart.items} currency={shop.currency} soldOut={soldOut} offHours={availability.offHours} onRemove={(key) => cart.send({ type: 'cart.remove', key })} />
        {(notes.remarks || notes.promotionCode) && (
          <dl className="checkout__notes">
            {notes.remarks && <><dt>{t('checkout.remarks')}</dt><dd>{notes.remarks}</dd></>}
            {notes.promotionCode && <><dt>{t('checkout.promotionCode')}</dt><dd>{notes.promotionCode}</dd></>}
          </dl>
        )}
        <CartTotal total={cart.total} currency={shop.currency} note={t('checkout.finalPrice')} />
        {/* The rewards come with the options: drawn under the cart's lines and subtotal, just above the total they change,
            so their arrival moves only what is below them (issue 24, layout shift). */}
        <FreeItemChoice checkout={ref} names={cart.items.map((i) => i.product.name)} disabled={!editing} />
        <PointsChoice checkout={ref} names={cart.items.map((i) => i.product.name)} disabled={!editing} />
        {serverTotal && (
          <dl className="checkout__to-pay" aria-live="polite">
            {serverTotal.discount > 0 && <><dt>{t('checkout.discount')}</dt><dd><SignedMoney amount={-serverTotal.discount} currency={shop.currency} /></dd></>}
            {serverTotal.deliveryFee > 0 && <><dt>{t('checkout.deliveryFee')}</dt><dd>{money(serverTotal.deliveryFee, shop.currency)}</dd></>}
            {serverTotal.tax > 0 && <><dt>{t('checkout.tax')}</dt><dd>{money(serverTotal.tax, shop.currency)}</dd></>}
            {serverTotal.points > 0 && <><dt>{t('rewards.spent')}</dt><dd data-testid="checkout-points">{serverTotal.points}</dd></>}
            {serverTotal.wallet > 0 && <><dt>{t('rewards.walletPays')}</dt><dd data-testid="checkout-wallet">{money(serverTotal.wallet, shop.currency)}</dd></>}
            <dt>{t('checkout.totalToPay')}</dt><dd data-testid="checkout-total">{money(serverTotal.total, shop.currency)}</dd>
          </dl>
        )}
        {serverTotal && <p className="shop-muted checkout__ready" data-testid="checkout-ready">
          {when.scheduledFor ? t('when.forTime', { time: orderDayTime(when.scheduledFor) }) : t('rewards.readyIn', { count: serverTotal.readyMinutes })}</p>}
        {/* Until the server's price is here, its place is kept (the total and the ready time), so nothing below moves. */}
        {!serverTotal && (loading || (canSubmit && !answered)) && <span className="checkout__to-pay-placeholder" aria-hidden="true" />}
        {error && <p className="shop-error" role="alert" data-testid="checkout-error">{translateMessage(error)}</p>}
        {nextTime && editing && (
          <button type="button" className="shop-button shop-button--wide" data-testid="take-next-time"
            onClick={() => { ref.send({ type: 'checkout.when', when: laterAt(nextTime) }); ref.send({ type: 'checkout.submit' }); }}>
            {t('when.take', { time: branchClock(nextTime) })}
          </button>
        )}
        {/* The wallet no longer covers the total (the server's quote says so): said before Place order, not after. */}
        {byWallet && !!answered?.error && <p className="shop-error" role="alert" data-testid="wallet-error">{errorMessage(answered.error)}</p>}
        {loading ? <span className="shop-button shop-button--wide checkout__button-placeholder" aria-hidden="true" /> : (
          <button type="button" className="shop-button shop-button--wide" disabled={!canSubmit} aria-busy={pending || undefined}
            onClick={() => ref.send({ type: 'checkout.submit' })}>
            {pending ? t('checkout.placing') : t('checkout.place')}
          </button>
        )}
        <Link href="/product-review" className="shop-link">{t('cart.remarks')}</Link>
      </aside>
    </div>
  );
}
