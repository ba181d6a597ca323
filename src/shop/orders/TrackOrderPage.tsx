import { Link, Redirect, useSearch } from 'wouter';
import { useMutation, useQuery } from '@apollo/client/react';
import { errorMessage } from '../../lib/errors';
import { storage, KEYS } from '../../lib/storage';
import { useSession } from '../../lib/session';
import { Loading } from '../../common/Loading';
import { useEffect } from 'react';
import { useCart, useOrderNotes, useShop } from '../shopContext';
import { PayOrderAgain, TrackedOrder } from './orderGraphql';
import { externalNavigation } from '../checkout/externalNavigation';
import { forgetSeries } from '../checkout/checkoutSeries';
import { OrderSummary, paidCashText } from './OrderDetails';
import { OrderProgress, refundUnderWay } from './OrderProgress';
import { FollowOrder } from './FollowOrder';
import { UPCOMING_STATUSES } from '../../../machines/orderLifecycle';
import { t } from '../../i18n';
import { ReadyEstimateLine } from '../checkout/ReadyEstimate';

/** Where an order is shown in full: /track with its id and hash. */
export const orderDetailsHref = (orderId: number, ohash: string | null) =>
  `/track?${new URLSearchParams({ orderId: String(orderId), ...(ohash ? { ohash } : {}) })}`;

/**
 * /track-order: after the order (or the payment page), a tick and 'Transaction Successfull' (paid
 * online; 'Order placed' for an order paid at the branch), the order as the server has it
 * (Store/GetOrderDetail with orderId and ohash), and buttons for the order's details and home. The
 * sandbox sends `payment=cancelled` when the card was not charged. Its link opens anywhere: with the
 * ohash, no sign-in is needed (the server answers the order's tracker); without it, sign in first.
 */
export default function TrackOrderPage() {
  const params = new URLSearchParams(useSearch());
  const last = storage.getJson<{ orderId?: number; ohash?: string; clearCartWhenShown?: boolean }>(KEYS.lastOrder, {});
  const orderId = Number(params.get('orderId')) || last.orderId || 0;
  const ohash = params.get('ohash') || (orderId === last.orderId ? last.ohash : undefined) || null;
  const cancelled = params.get('payment') === 'cancelled';
  // Back from the payment page without paying (the checkout sends the customer here instead of to a second order).
  const notCompleted = params.get('payment') === 'notCompleted';
  const shop = useShop();
  const session = useSession();
  const { data, loading, error, refetch } = useQuery(TrackedOrder, {
    variables: { orderId, ohash },
    skip: !orderId || session.isRestoring,
    fetchPolicy: 'network-only',
    context: { silent: true },
  });
  const order = data?.Store_GetOrderDetail;
  // Live: the page follows the order until it is finished (accepted, ready, closed, rejected with its
  // reason), and then while its money is on its way back (the refund's end is an order change too).
  const open = !!order && (UPCOMING_STATUSES.includes(order.status as never) || refundUnderWay(order));
  const [payAgain, payAgainState] = useMutation(PayOrderAgain, { context: { silent: true } });
  const cart = useCart();
  const { clearNotes } = useOrderNotes();
  // Back from the payment page: the order is known now, so the cart that made it goes.
  const knownOrderId = order?.id;
  useEffect(() => {
    if (!knownOrderId || knownOrderId !== last.orderId || !last.clearCartWhenShown) return;
    cart.send({ type: 'cart.clear' });
    clearNotes();
    forgetSeries();
    storage.setJson(KEYS.lastOrder, { orderId: last.orderId, ohash: last.ohash });
  }, [knownOrderId]); // eslint-disable-line react-hooks/exhaustive-deps

  if (session.isRestoring) return <Loading label={t('order.loading')} />;
  const signInHref = `/login?${new URLSearchParams({ next: window.location.pathname + window.location.search })}`;
  // The route guard's rule for a customer-only page, unless the link carries the order's ohash.
  if (!session.isAuthenticated && !ohash) return <Redirect to={signInHref} replace />;
  if (session.isAuthenticated && session.role !== 'CUSTOMER') return <Redirect to="/dashboard" replace />;
  if (!orderId) {
    return (
      <section className="shop-section shop-empty">
        <h1 className="shop-title">{t('order.yours')}</h1>
        <p className="shop-muted">{t('order.none')}</p>
        <Link href="/" className="shop-button">{t('order.home')}</Link>
      </section>
    );
  }
  if (loading && !order) return <Loading label={t('order.loading')} />;
  if (error || !order) {
    return (
      <section className="shop-section shop-empty">
        <h1 className="shop-title">{t('order.yours')}</h1>
        <p className="shop-error" role="alert">{errorMessage(error, t('order.notFound'))}</p>
        <Link href="/" className="shop-button">{t('order.home')}</Link>
      </section>
    );
  }
  const failed = (cancelled || notCompleted) && !order.isPaid;
  // A rejected order is no success, whatever happened to its payment: say so above its reason.
  const rejected = order.status === 'rejected';
  // SPEC-silent: a cancelled card payment can be paid again while the order is unpaid and not rejected.
  const canPayAgain = failed && order.status !== 'rejected';
  const onPayAgain = async () => {
    try {
      const res = await payAgain({ variables: { input: { orderId: order.id, ohash }, orderId: order.id, ohash } });
      const url = res.data?.Store_PayOrderAgain?.paymentUrl;
      if (url) externalNavigation.assign(url);
    } catch { /* shown below from payAgainState.error */ }
  };
  return (
    <section className="shop-section order-done">
      <div className={`order-done__mark${failed || rejected ? ' is-failed' : ''}`} aria-hidden="true">
        {failed || rejected ? '!' : <svg viewBox="0 0 24 24" width="40" height="40"><path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" /></svg>}
      </div>
      {/* 'Transaction Successfull' only once money was taken online: an order paid at the branch is placed, then paid there. */}
      <h1 className="shop-title order-done__title" data-testid="order-title">
        {rejected ? t('order.rejectedTitle') : failed ? t(notCompleted ? 'order.notCompleted' : 'order.cancelled') : order.isPaid && !order.isCash ? t('order.success') : t('order.placed')}
      </h1>
      <p className="shop-muted" data-testid="order-payment-note">
        {rejected ? t('order.rejectedText')
          : failed ? (canPayAgain ? t('order.payAgainHint') : t('order.rejectedNoPay'))
          : order.isPaid ? (order.isCash ? paidCashText(order.deliverySystem) : t('order.paid'))
          : order.deliverySystem === 'delivery' ? t('order.cashOnDelivery')
          : t('order.payAtBranch')}
      </p>
      <ReadyEstimateLine orderId={order.id} ohash={ohash} status={order.status} />
      {canPayAgain && (
        <div className="order-done__pay-again">
          {/* The link's holder pays for this order as it is, with or without a session (its ohash admits it). */}
          <button type="button" className="shop-button" onClick={onPayAgain} disabled={payAgainState.loading}>
            {payAgainState.loading ? t('order.openingPayment') : t('order.payAgain')}
          </button>
          {payAgainState.error && <p className="shop-error" role="alert">{errorMessage(payAgainState.error)}</p>}
        </div>
      )}
      <OrderProgress order={order} currency={shop.currency} />
      {open && <FollowOrder key={`${order.id}:${ohash}`} orderId={order.id} ohash={ohash} onChange={() => void refetch()} />}
      <div className="shop-card"><OrderSummary order={order} currency={shop.currency} /></div>
      <div className="order-done__actions">
        <Link href={orderDetailsHref(order.id, ohash)} className="shop-button">{t('order.details')}</Link>
        <Link href="/" className="shop-button shop-button--ghost">{t('order.home')}</Link>
      </div>
    </section>
  );
}
