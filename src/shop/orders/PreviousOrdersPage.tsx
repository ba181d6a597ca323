import { Link } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { ORDER_HISTORY_PAGE } from '../../../domain/constants';
import { money, t } from '../../i18n';
import { errorMessage } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { Loading } from '../../common/Loading';
import { useShop } from '../shopContext';
import { OrderHistoryList } from './orderGraphql';
import { orderDate, statusLabel } from './OrderDetails';
import { orderDetailsHref } from './TrackOrderPage';
import { OrderAgain } from './OrderAgain';

/** /track/previous: the customer's latest orders (Store/GetCurrentCustomerOrdersHistory, skip 0 take 5, read from orderHistoryItems). */
export default function PreviousOrdersPage() {
  const session = useSession();
  const shop = useShop();
  const signedIn = session.isAuthenticated && !session.isGuest;
  const { data, loading, error } = useQuery(OrderHistoryList, {
    variables: { skip: ORDER_HISTORY_PAGE.skip, take: ORDER_HISTORY_PAGE.take, brandId: shop.brandId },
    skip: !signedIn,
    fetchPolicy: 'network-only',
    context: { silent: true },
  });
  const items = (data?.Store_GetCurrentCustomerOrdersHistory?.orderHistoryItems ?? []).filter((i): i is NonNullable<typeof i> => !!i);
  return (
    <section className="shop-section">
      <div className="track-page__head">
        <h1 className="shop-title">{t('order.previous')}</h1>
        <Link href="/track" className="shop-link">{t('order.trackAn')}</Link>
      </div>
      {session.isRestoring && <Loading />}
      {!session.isRestoring && !signedIn && (
        <div className="shop-card">
          <p className="shop-muted">{session.isGuest ? t('order.guestNoHistory') : t('order.signInForHistory')}</p>
          <Link href="/login?next=/track/previous" className="shop-button">{t('layout.signIn')}</Link>
        </div>
      )}
      {signedIn && loading && !items.length && <Loading label={t('order.loadingOrders')} />}
      {signedIn && error && <p className="shop-error" role="alert">{errorMessage(error, t('order.ordersFailed'))}</p>}
      {signedIn && !loading && !error && !items.length && <p className="shop-muted">{t('order.noOrders')}</p>}
      {items.length > 0 && (
        <ul className="history" aria-label={t('order.previous')}>
          {items.map((o) => (
            <li key={o.id}>
              <Link href={orderDetailsHref(o.id, null)} className="history__row" data-testid="history-row">
                <span className="history__main">
                  <strong>{o.orderNumber}</strong>
                  <span className="shop-muted">#{o.id} · {orderDate(o.date)} · {o.branchName}</span>
                </span>
                <span className="history__side">
                  <strong>{money(o.amount, shop.currency)}</strong>
                  <span className={`history__status is-${o.status}`}>{statusLabel(o.status)}</span>
                </span>
              </Link>
              <OrderAgain orderId={o.id} ohash={null} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
