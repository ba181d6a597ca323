import { formatMoney } from '../../../domain/money';
import type { OrderDetail } from './orderGraphql';

const MODE_LABEL: Record<string, string> = { pickup: 'Pick-up', carService: 'Car service', delivery: 'Delivery' };
const STATUS_LABEL: Record<string, string> = { pending: 'Waiting for the branch', accepted: 'Being prepared', closed: 'Completed', rejected: 'Rejected' };

export const modeLabel = (m: string) => MODE_LABEL[m] ?? m;
export const statusLabel = (s: string) => STATUS_LABEL[s] ?? s;
export const orderDate = (iso: unknown) => {
  const d = new Date(String(iso));
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/** The summary of an order (number, date, branch, mode, payment, status, total). */
export function OrderSummary({ order, currency }: { order: OrderDetail; currency: string }) {
  return (
    <dl className="order-summary" data-testid="order-summary">
      <dt>Order</dt><dd data-testid="order-number">{order.orderNumber}</dd>
      <dt>Date</dt><dd>{orderDate(order.date)}</dd>
      <dt>Branch</dt><dd>{order.branchName}</dd>
      <dt>Order type</dt><dd>{modeLabel(order.deliverySystem)}</dd>
      <dt>Payment</dt><dd>{order.paymentSystemName}{order.isPaid ? ' · Paid' : ' · Not paid yet'}</dd>
      <dt>Status</dt><dd>{statusLabel(order.status)}</dd>
      <dt>Total</dt><dd className="order-summary__total" data-testid="order-total">{formatMoney(order.total, currency)}</dd>
    </dl>
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
              {i.options.length > 0 && <span className="shop-muted"> · {i.options.filter(Boolean).map((o) => o!.name).join(', ')}</span>}
            </span>
            <span className="order-lines__price">{formatMoney(i.lineTotal, currency)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-lines__totals">
        <dt>Subtotal</dt><dd>{formatMoney(order.subtotal, currency)}</dd>
        {order.discount > 0 && <><dt>Discount</dt><dd>−{formatMoney(order.discount, currency)}</dd></>}
        {order.tax > 0 && <><dt>Tax</dt><dd>{formatMoney(order.tax, currency)}</dd></>}
        {order.deliveryFee > 0 && <><dt>Delivery fee</dt><dd>{formatMoney(order.deliveryFee, currency)}</dd></>}
        <dt>Total</dt><dd><strong>{formatMoney(order.total, currency)}</strong></dd>
      </dl>
      {order.deliveryAddress && <p className="shop-muted">Deliver to {order.deliveryAddress.area}, Block {order.deliveryAddress.block}, {order.deliveryAddress.street}, House {order.deliveryAddress.house_no}</p>}
      {order.carDetails && <p className="shop-muted">Car: {order.carDetails}</p>}
    </div>
  );
}
