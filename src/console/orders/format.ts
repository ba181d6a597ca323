import { Intent } from '@blueprintjs/core';
import { formatMoney } from '../../../domain/money';
import type { OrderEventType } from '../../../machines/orderLifecycle';
import type { Capability } from '../../../domain/permissions';
import type { CountKey } from './screens';

export const STATUS_LABEL: Record<string, string> = { pending: 'Pending', accepted: 'Accepted', ready: 'Ready', closed: 'Closed', rejected: 'Rejected' };
export const STATUS_INTENT: Record<string, Intent> = { pending: Intent.WARNING, accepted: Intent.PRIMARY, ready: Intent.SUCCESS, closed: Intent.SUCCESS, rejected: Intent.DANGER };
export const MODE_LABEL: Record<string, string> = { pickup: 'Pick-up', carService: 'Drive-thru', delivery: 'Delivery' };
export const ARRIVAL_LABEL: Record<string, string> = { arrived: 'Arrived', served: 'Served', noShow: 'No-show' };
export const REFUND_LABEL: Record<string, string> = { requested: 'Refund requested', approved: 'Refunded' };
export const COUNT_LABEL: Record<CountKey, string> = {
  pending: 'Pending', accepted: 'Accepted', ready: 'Ready', closed: 'Closed', rejected: 'Rejected', arrived: 'Arrived', served: 'Served', noShow: 'No-show',
};

/**
 * The row actions the console offers, in button order, and who may use them (the server checks
 * the same table). `place`: the order's steps sit in the Actions column; the money steps beside
 * the payment state they change, so the Actions column stays narrow enough for the row to fit.
 */
export interface OrderAction { event: OrderEventType; label: string; intent: Intent; capability: Capability; place: 'steps' | 'payment' }
export const ORDER_ACTIONS: OrderAction[] = [
  { event: 'order.accept', label: 'Accept', intent: Intent.PRIMARY, capability: 'orders.operate', place: 'steps' },
  { event: 'order.ready', label: 'Ready', intent: Intent.SUCCESS, capability: 'orders.operate', place: 'steps' },
  { event: 'order.reject', label: 'Reject', intent: Intent.DANGER, capability: 'orders.operate', place: 'steps' },
  { event: 'order.serve', label: 'Served', intent: Intent.SUCCESS, capability: 'orders.operate', place: 'steps' },
  { event: 'order.close', label: 'Close', intent: Intent.SUCCESS, capability: 'orders.operate', place: 'steps' },
  { event: 'order.noShow', label: 'No-show', intent: Intent.WARNING, capability: 'orders.operate', place: 'steps' },
  { event: 'order.approveRefund', label: 'Approve refund', intent: Intent.WARNING, capability: 'refunds.approve', place: 'steps' },
  { event: 'order.markPaid', label: 'Mark as paid', intent: Intent.NONE, capability: 'orders.operate', place: 'payment' },
  { event: 'order.requestRefund', label: 'Refund', intent: Intent.NONE, capability: 'orders.operate', place: 'payment' },
];

export const money = (amount: number) => formatMoney(amount);

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short' });
/** "14:05" today, "12 Mar 14:05" before. */
export function placedAt(iso: string, now = new Date()) {
  const d = new Date(iso);
  const sameDay = d.toDateString() === now.toDateString();
  return sameDay ? timeFormat.format(d) : `${dateFormat.format(d)} ${timeFormat.format(d)}`;
}

/** "<1 min", "7 min", "1 h 05 min": how long an order has waited, for the row's timer. */
export function waited(ms: number) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '<1 min';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
