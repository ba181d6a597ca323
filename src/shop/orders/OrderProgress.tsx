import { useEffect } from 'react';
import { OPEN_STATUSES, type OrderStatus } from '../../../machines/orderLifecycle';
import type { OrderDetail } from './orderGraphql';
import './orderProgress.css';

/**
 * How often an open order is read again while its page is open. The customer sees a change
 * (accepted, ready, closed, rejected with its reason) within about this long, with no reload;
 * a finished order is not read again (docs/decisions.md "Order screens: server").
 */
export const FOLLOW_MS = 1_000;

/** Keeps reading the order while it is open (pending, accepted, ready); stops once it is finished. */
export function useFollowOrder(status: string | undefined, polling: { startPolling(ms: number): void; stopPolling(): void }) {
  const open = !!status && (OPEN_STATUSES as string[]).includes(status);
  useEffect(() => {
    if (!open) return;
    polling.startPolling(FOLLOW_MS);
    return () => polling.stopPolling();
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps
}

const STEPS: { status: OrderStatus; label: string }[] = [
  { status: 'pending', label: 'Placed' },
  { status: 'accepted', label: 'Accepted' },
  { status: 'ready', label: 'Ready' },
  { status: 'closed', label: 'Completed' },
];

const READY_TEXT: Record<string, string> = {
  pickup: 'Your order is ready. Pick it up at the branch.',
  carService: 'Your order is ready. It is brought to your car.',
  delivery: 'Your order is ready and leaves with the driver soon.',
};

function headline(order: OrderDetail): string {
  switch (order.status) {
    case 'pending': return 'Waiting for the branch to accept your order.';
    case 'accepted': return 'The branch accepted your order and is preparing it.';
    case 'ready': return READY_TEXT[order.deliverySystem] ?? READY_TEXT.pickup;
    case 'rejected': return 'The branch could not take your order.';
    case 'closed': return order.arrival === 'noShow' ? 'The order was closed: the branch did not see you collect it.' : 'Your order is complete. Enjoy!';
    default: return order.status;
  }
}

/**
 * Where the order is, live: placed → accepted → ready → completed, or rejected with the branch's
 * reason (issue 11). The steps read the order as the server has it; the page refreshes it (useFollowOrder).
 */
export function OrderProgress({ order }: { order: OrderDetail }) {
  const reached = STEPS.findIndex((s) => s.status === order.status);
  const ended = order.status === 'rejected' || (order.status === 'closed' && order.arrival === 'noShow');
  return (
    <div className={`order-progress${ended ? ' is-ended' : ''}`} data-testid="order-progress" data-status={order.status}>
      <p className="order-progress__headline" role="status" aria-live="polite">{headline(order)}</p>
      {order.statusReason && (
        <p className="order-progress__reason" data-testid="order-reason">Reason: {order.statusReason}</p>
      )}
      {order.status !== 'rejected' && (
        <ol className="order-progress__steps">
          {STEPS.map((s, i) => (
            <li key={s.status} className={i < reached ? 'is-done' : i === reached ? 'is-current' : ''} aria-current={i === reached ? 'step' : undefined}>
              {s.label}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
