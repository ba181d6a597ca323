import type { OrderLifecycleEvent, OrderEventType } from '../domain/orderEvents';
import { DELIVERY_LABELS, type DeliverySystem, type OrderLifecycleRow } from './orderVocabulary';

/** Why the order lifecycle (machines/orderLifecycle.ts, which re-exports this) refuses an event, in staff's words. */
/** What an event does to an order, as a past participle: "Order #12 was not accepted". */
export const EVENT_VERBS: Record<OrderEventType, string> = {
  'order.accept': 'accepted',
  'order.reject': 'rejected',
  'order.ready': 'marked as ready',
  'order.close': 'closed',
  'order.markPaid': 'marked as paid',
  'order.arrive': 'marked as arrived',
  'order.serve': 'marked as served',
  'order.noShow': 'marked as no-show',
  'order.markRead': 'marked as read',
  'order.requestRefund': 'refunded',
  'order.approveRefund': 'given an approved refund',
  'order.fire': 'sent to the kitchen',
};

const ARRIVAL_TEXT: Record<string, string> = { served: 'it was served', noShow: 'it is a no-show' };

/**
 * Why the machine refuses `event` for this order, as a sentence for staff:
 * "Order #12 cannot be accepted: it is closed".
 */
export function refusalMessage(orderId: number, row: OrderLifecycleRow, event: OrderLifecycleEvent): string {
  return `Order #${orderId} cannot be ${EVENT_VERBS[event.type]}: ${refusalReason(row, event)}`;
}

function refusalReason(row: OrderLifecycleRow, event: OrderLifecycleEvent): string {
  const delivery = `a ${(DELIVERY_LABELS[row.deliverySystem as DeliverySystem] ?? row.deliverySystem).toLowerCase()} order`;
  switch (event.type) {
    case 'order.accept': case 'order.reject': case 'order.close': case 'order.ready': case 'order.fire':
      return `it is ${row.status}`;
    case 'order.arrive': case 'order.serve': case 'order.noShow': {
      const needsCar = event.type !== 'order.noShow';
      if (needsCar ? row.deliverySystem !== 'carService' : row.deliverySystem === 'delivery') return `it is ${delivery}`;
      if (row.arrival === 'served' || row.arrival === 'noShow') return ARRIVAL_TEXT[row.arrival];
      if (event.type === 'order.arrive' && row.arrival === 'arrived') return 'the customer has already arrived';
      if (event.type === 'order.serve' && row.status === 'pending') return 'it is not accepted yet';
      return `it is ${row.status}`;
    }
    case 'order.markPaid': return 'it is already paid';
    case 'order.markRead': return 'it is already read';
    case 'order.requestRefund':
      return row.payment !== 'paid' ? 'it is not paid'
        : row.refund === 'approved' ? 'its refund is already approved'
        : row.refund === 'requested' ? 'a refund is already requested'
        : 'it is rejected, and its payment is given back by itself';
    case 'order.approveRefund':
      return row.refund === 'approved' ? 'its refund is already approved' : 'no refund is requested';
  }
}
