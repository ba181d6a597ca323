import { Intent } from '@blueprintjs/core';
import { DELIVERY_LABELS, STATUS_LABELS, type OrderEventType, type OrderStatus } from '../../../machines/orderLifecycle';
import type { CountKey } from './screens';
import { clockText, dayKey, dayMonthText } from '../../../domain/time';

export const STATUS_LABEL: Readonly<Record<string, string>> = STATUS_LABELS;
export const STATUS_INTENT: Record<OrderStatus, Intent> & Record<string, Intent | undefined> = { pending: Intent.WARNING, accepted: Intent.PRIMARY, ready: Intent.SUCCESS, closed: Intent.SUCCESS, rejected: Intent.DANGER, scheduled: Intent.NONE };
export const MODE_LABEL: Readonly<Record<string, string>> = DELIVERY_LABELS;
export const ARRIVAL_LABEL: Record<string, string> = { arrived: 'Arrived', served: 'Served', noShow: 'No-show' };
export const REFUND_LABEL: Record<string, string> = { requested: 'Refund requested', approved: 'Refunded' };
export const COUNT_LABEL: Record<CountKey, string> = { ...STATUS_LABELS, arrived: 'Arrived', served: 'Served', noShow: 'No-show' };

/**
 * The row actions the console offers, in button order (who may use them: ORDER_EVENT_CAPABILITY
 * in domain/permissions.ts, which the server checks too). `place`: the order's steps sit in the Actions column; the money steps beside
 * the payment state they change, so the Actions column stays narrow enough for the row to fit.
 */
export interface OrderAction { event: OrderEventType; label: string; intent: Intent; place: 'steps' | 'payment' }
export const ORDER_ACTIONS: OrderAction[] = [
  { event: 'order.accept', label: 'Accept', intent: Intent.PRIMARY, place: 'steps' },
  { event: 'order.ready', label: 'Ready', intent: Intent.SUCCESS, place: 'steps' },
  { event: 'order.reject', label: 'Reject', intent: Intent.DANGER, place: 'steps' },
  { event: 'order.serve', label: 'Served', intent: Intent.SUCCESS, place: 'steps' },
  { event: 'order.close', label: 'Close', intent: Intent.SUCCESS, place: 'steps' },
  { event: 'order.noShow', label: 'No-show', intent: Intent.WARNING, place: 'steps' },
  { event: 'order.approveRefund', label: 'Approve refund', intent: Intent.WARNING, place: 'steps' },
  { event: 'order.markPaid', label: 'Mark as paid', intent: Intent.NONE, place: 'payment' },
  { event: 'order.requestRefund', label: 'Refund', intent: Intent.NONE, place: 'payment' },
];


/**
 * The payment as staff read it: a cash order finished without the cash collected is owed to the
 * branch (it stays on /unpaidorders); a no-show owes nothing that anyone will collect.
 */
export const paymentLabel = (r: { payment: string; isCash: boolean; status: string; arrival: string }) =>
  r.payment === 'paid' ? 'Paid' : r.isCash && r.status === 'closed' && r.arrival !== 'noShow' ? 'Cash owed' : 'Unpaid';

/** "14:05" today, "12 Mar 14:05" before (Kuwait's clock and days, domain/time.ts). */
export function placedAt(iso: string, now = new Date()) {
  return dayKey(iso) === dayKey(now) ? clockText(iso) : `${dayMonthText(iso)} ${clockText(iso)}`;
}

/** An order for later (issue 25): the time it is for, as the row shows it: 'For 10:15' today, 'For 29 Nov 10:15' another day. */
export const scheduledText = (iso: string, now = new Date()) => `For ${placedAt(iso, now)}`;

/** "<1 min", "7 min", "1 h 05 min": how long an order has waited, for the row's timer. */
export function waited(ms: number) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '<1 min';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
