import type { OrderStatus } from '../../../machines/orderLifecycle';
import type { OrderDetail } from './orderGraphql';
import { dateTime, language, money, t, translateMessage, type TextKey } from '../../i18n';
import { refundCardWords } from '../../../domain/refundCard';
import '../../i18n/screens';
import { orderDayTime } from '../orderTimeText';
import './orderProgress.css';

const STEPS: { status: OrderStatus; label: TextKey }[] = [
  { status: 'pending', label: 'progress.placed' },
  { status: 'accepted', label: 'progress.accepted' },
  { status: 'ready', label: 'progress.ready' },
  { status: 'closed', label: 'progress.completed' },
];

const READY_TEXT: Record<string, TextKey> = {
  pickup: 'progress.readyPickup',
  carService: 'progress.readyCarService',
  delivery: 'progress.readyDelivery',
};

function headline(order: OrderDetail): string {
  switch (order.status) {
    case 'pending': return t('progress.pending');
    // An order for later before its fire time (issue 25): placed, and waiting for its time.
    case 'scheduled': return t('progress.scheduled', { time: orderDayTime(String(order.scheduledFor)) });
    case 'accepted': return t('progress.preparing');
    case 'ready': return t(READY_TEXT[order.deliverySystem] ?? READY_TEXT.pickup);
    case 'rejected': return t('progress.rejected');
    case 'closed': return t(order.arrival === 'noShow' ? 'progress.noShow' : 'progress.complete');
    default: return order.status;
  }
}

/**
 * Where the order is, live: placed → accepted → ready → completed, or rejected with the branch's
 * reason (issue 11). The steps read the order as the server has it; the page reads it again when it changes (FollowOrder).
 */
/**
 * The money given back (issue 21): on its way to the card, returned (with the day), or owed at the
 * branch for cash. The server's refund states, read with the order.
 */
export function OrderRefunds({ order, currency }: { order: OrderDetail; currency: string }) {
  const refunds = order.refunds.filter((r): r is NonNullable<typeof r> => !!r);
  if (!refunds.length) return null;
  const card = refundCardWords(translateMessage(order.paymentSystemName), language());
  return (
    <div className="order-progress__refunds" data-testid="order-refunds">
      {refunds.map((r, i) => {
        const amount = money(r.amount, currency);
        const date = () => dateTime(String(r.refundedAt), { dateStyle: 'medium', timeStyle: 'short' });
        const text = r.state === 'returned' ? t('order.refundReturned', { amount, card, date: date() })
          : r.state === 'handedBack' ? t('order.refundHandedBack', { amount, date: date() })
          : r.state === 'owed' ? t('order.refundOwed', { amount }) : t('order.refundReturning', { amount, card });
        return <p key={i} className="order-progress__refund" data-state={r.state}>{text}</p>;
      })}
    </div>
  );
}

/** True while some of the order's money is still on its way back (the page keeps following the order). */
export const refundUnderWay = (order: OrderDetail) => order.refunds.some((r) => r?.state === 'returning');

export function OrderProgress({ order, currency }: { order: OrderDetail; currency: string }) {
  // A scheduled order is placed, as a pending one is: the kitchen has not seen it yet.
  const reached = STEPS.findIndex((s) => s.status === (order.status === 'scheduled' ? 'pending' : order.status));
  const ended = order.status === 'rejected' || (order.status === 'closed' && order.arrival === 'noShow');
  return (
    <div className={`order-progress${ended ? ' is-ended' : ''}`} data-testid="order-progress" data-status={order.status}>
      <p className="order-progress__headline" role="status" aria-live="polite">{headline(order)}</p>
      {order.statusReason && (
        <p className="order-progress__reason" data-testid="order-reason">{t('progress.reason', { reason: order.statusReason })}</p>
      )}
      <OrderRefunds order={order} currency={currency} />
      {order.status !== 'rejected' && (
        <ol className="order-progress__steps">
          {STEPS.map((s, i) => (
            <li key={s.status} className={i < reached ? 'is-done' : i === reached ? 'is-current' : ''} aria-current={i === reached ? 'step' : undefined}>
              {t(s.label)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
