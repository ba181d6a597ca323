import { t } from '../../i18n';
import { Link, useSearch } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { errorMessage } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { storage, KEYS } from '../../lib/storage';
import { Loading } from '../../common/Loading';
import { useShop } from '../shopContext';
import { TrackedOrder } from './orderGraphql';
import { OrderLines, OrderSummary } from './OrderDetails';
import { OrderAgain } from './OrderAgain';

/**
 * /track: one order in full, with its live status. Which order: the one in the address
 * (`orderId`, and `ohash` for the guest), else the last one placed in this browser.
 */
export default function TrackPage() {
  const params = new URLSearchParams(useSearch());
  const last = storage.getJson<{ orderId?: number; ohash?: string }>(KEYS.lastOrder, {});
  const orderId = Number(params.get('orderId')) || last.orderId || 0;
  const ohash = params.get('ohash') || (orderId === last.orderId ? last.ohash : undefined) || null;
  const shop = useShop();
  const session = useSession();
  const { data, loading, error, refetch } = useQuery(TrackedOrder, {
    variables: { orderId, ohash },
    skip: !orderId || session.isRestoring,
    fetchPolicy: 'network-only',
    context: { silent: true },
  });
  const order = data?.Store_GetOrderDetail;
  return (
    <section className="shop-section track-page">
      <div className="track-page__head">
        <h1 className="shop-title">{t('order.track')}</h1>
        <Link href="/track/previous" className="shop-link">{t('order.previous')}</Link>
      </div>
      {!orderId && <p className="shop-muted">{t('order.noneToTrack')}</p>}
      {orderId > 0 && loading && !order && <Loading label={t('order.loading')} />}
      {orderId > 0 && !loading && (error || !order) && (
        <p className="shop-error" role="alert">
          {session.isAuthenticated ? errorMessage(error, t('order.notFound')) : t('order.signInToSee')}
        </p>
      )}
      {order && (
        <>
          <div className="shop-card"><OrderSummary order={order} currency={shop.currency} /></div>
          <div className="shop-card"><h2 className="shop-card__title">{t('order.items')}</h2><OrderLines order={order} currency={shop.currency} /></div>
          <div className="order-done__actions">
            <button type="button" className="shop-button shop-button--ghost" onClick={() => void refetch()}>{t('order.refresh')}</button>
            {order.branchPhoneNumber && <a className="shop-button shop-button--ghost" href={`tel:${order.branchPhoneNumber}`}>{t('order.call')}</a>}
          </div>
          <OrderAgain key={order.id} orderId={order.id} ohash={ohash} />
        </>
      )}
    </section>
  );
}
