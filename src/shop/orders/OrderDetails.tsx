import { dateTime, joinList, money, t, translateMessage, type TextKey } from '../../i18n';
import { streetText } from '../address/addressText';
import { SignedMoney } from '../components/SignedMoney';
import { orderDayTime } from '../orderTimeText';
import type { OrderDetail } from './orderGraphql';
import type { OrderStatus } from '../../../machines/orderLifecycle';

const MODE_LABEL: Record<string, TextKey> = { pickup: 'checkout.pickup', carService: 'checkout.carService', delivery: 'checkout.delivery' };
// Keyed by the lifecycle's one status list: a status added there without a label here fails the typecheck.
const STATUS_LABEL: Record<OrderStatus, TextKey> = {
  pending: 'order.pending', accepted: 'order.accepted', ready: 'order.ready', closed: 'order.closed', rejected: 'order.rejected', scheduled: 'order.scheduled',
};

export const modeLabel = (m: string) => (MODE_LABEL[m] ? t(MODE_LABEL[m]) : m);
export const statusLabel = (s: string) => (s in STATUS_LABEL ? t(STATUS_LABEL[s as OrderStatus]) : s);
export const orderDate = (iso: unknown) => dateTime(String(iso), { dateStyle: 'medium', timeStyle: 'short' });
/** What a cash order reads once the branch (or its driver) recorded the cash. */
export const paidCashText = (deliverySystem: string) => t(deliverySystem === 'delivery' ? 'order.paidOnDelivery' : 'order.paidAtBranch');

/** The summary of an order (number, date, branch, mode, payment, status, total), then its payment's receipt when paid online. */
export function OrderSummary({ order, currency }: { order: OrderDetail; currency: string }) {
  return (
    <>
    <dl className="order-summary" data-testid="order-summary">
      <dt>{t('order.order')}</dt><dd data-testid="order-number">{order.orderNumber}</dd>
      <dt>{t('order.date')}</dt><dd data-testid="order-date">{orderDate(order.date)}</dd>
      <dt>{t('order.branch')}</dt><dd>{order.branchName}</dd>
      <dt>{t('order.type')}</dt><dd>{modeLabel(order.deliverySystem)}</dd>
      {!!order.scheduledFor && <><dt>{t('when.title')}</dt><dd data-testid="order-scheduled-for">{t('when.forTime', { time: orderDayTime(String(order.scheduledFor)) })}</dd></>}
      <dt>{t('order.payment')}</dt><dd data-testid="order-payment">{translateMessage(order.paymentSystemName)}{!order.isPaid ? t('order.notPaid') : order.isCash ? ` · ${paidCashText(order.deliverySystem)}` : t('order.isPaid')}</dd>
      <dt>{t('order.status')}</dt><dd>{statusLabel(order.status)}</dd>
      <dt>{t('order.total')}</dt><dd className="order-summary__total" data-testid="order-total">{money(order.total, currency)}</dd>
    </dl>
    {order.receipt && <PaymentReceipt receipt={order.receipt} currency={currency} />}
    </>
  );
}

/** What KNET asks a receipt to show: date and time, result, amount, payment id and track id (issue 21). */
function PaymentReceipt({ receipt, currency }: { receipt: NonNullable<OrderDetail['receipt']>; currency: string }) {
  return (
    <section className="order-receipt" data-testid="payment-receipt" aria-label={t('order.receipt')}>
      <h2 className="order-receipt__title">{t('order.receipt')}</h2>
      <dl className="order-summary">
        <dt>{t('order.receiptDateTime')}</dt><dd>{orderDate(receipt.paidAt ?? receipt.at)}</dd>
        <dt>{t('order.receiptResult')}</dt><dd data-testid="receipt-result">{receipt.result}</dd>
        <dt>{t('order.receiptAmount')}</dt><dd>{money(receipt.amount, currency)}</dd>
        {receipt.paymentId && <><dt>{t('order.receiptPaymentId')}</dt><dd data-testid="receipt-payment-id">{receipt.paymentId}</dd></>}
        {receipt.trackId && <><dt>{t('order.receiptTrackId')}</dt><dd data-testid="receipt-track-id">{receipt.trackId}</dd></>}
      </dl>
    </section>
  );
}

/** Every line of an order with its options, and the totals as the server priced them. */
export function OrderLines({ order, currency }: { order: OrderDetail; currency: string }) {
  return (
    <div className="order-lines">
      <ul>
        {order.items.filter((i): i is NonNullable<typeof i> => !!i).map((i, n) => (
          <li key={n}>
            <span className="order-lines__qty">{i.quantity} ×</span>
            <span className="order-lines__name">
              {i.name}
              {i.options.length > 0 && <span className="shop-muted"> · {joinList(i.options.filter(Boolean).map((o) => o!.name))}</span>}
            </span>
            <span className="order-lines__price">{money(i.lineTotal, currency)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-lines__totals">
        <dt>{t('cart.subtotal')}</dt><dd>{money(order.subtotal, currency)}</dd>
        {order.discount > 0 && <><dt>{t('checkout.discount')}</dt><dd><SignedMoney amount={-order.discount} currency={currency} /></dd></>}
        {order.tax > 0 && <><dt>{t('checkout.tax')}</dt><dd>{money(order.tax, currency)}</dd></>}
        {order.deliveryFee > 0 && <><dt>{t('checkout.deliveryFee')}</dt><dd>{money(order.deliveryFee, currency)}</dd></>}
        <dt>{t('order.total')}</dt><dd><strong>{money(order.total, currency)}</strong></dd>
      </dl>
      {order.deliveryAddress && <p className="shop-muted">{t('order.deliverTo', { area: order.deliveryAddress.area, block: order.deliveryAddress.block, street: streetText(order.deliveryAddress.street), house: order.deliveryAddress.house_no })}</p>}
      {order.carDetails && <p className="shop-muted">{t('order.car', { car: order.carDetails })}</p>}
    </div>
  );
}
