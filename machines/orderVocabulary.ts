import type { OrderEventType } from '../domain/orderEvents';
import { ACCEPTANCE_DEADLINE } from '../domain/orderSettings';

/**
 * The words of an order that are not the lifecycle's transitions (machines/orderLifecycle.ts, which
 * re-exports them): how it reaches the customer, its statuses in staff's order, the reasons an
 * operator gives, and the order columns the lifecycle owns.
 */
/**
 * How an order reaches the customer: one name each (the stored `delivery_system`), one label for
 * staff. SPEC.md calls car service "drive-thru" on the console's screens, so that is its label
 * there; the shop's translated texts say "Car service" (src/i18n).
 */
export const DELIVERY_SYSTEMS = ['pickup', 'carService', 'delivery'] as const;
export type DeliverySystem = (typeof DELIVERY_SYSTEMS)[number];
export const DELIVERY_LABELS: Readonly<Record<DeliverySystem, string>> = { pickup: 'Pick-up', carService: 'Drive-thru', delivery: 'Delivery' };

/**
 * The statuses in the order staff read them (the flow, then the two ends, then the orders for later
 * not yet in the kitchen: appended, so lists of the first five keep their places): the status counts, the
 * status filters and the server's count schema all follow this list. Legacy ids are ORDER_STATUS_TYPES'.
 */
export const ORDER_STATUSES = ['pending', 'accepted', 'ready', 'closed', 'rejected', 'scheduled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The statuses the kitchen works on now ("current" orders: the live lists, the drive-thru and pick-up
 * screens). An order for later that has not fired yet (`scheduled`) is owed too, but not yet the
 * kitchen's: it is in UPCOMING_STATUSES, which the customer's tracker follows as well.
 */
export const OPEN_STATUSES: readonly OrderStatus[] = ['pending', 'accepted', 'ready'];
/** Not finished for the customer: the open statuses and an order for later waiting for its fire time. */
export const UPCOMING_STATUSES: readonly OrderStatus[] = ['scheduled', ...OPEN_STATUSES];

/** Events that finish an order against the customer's wish; the operator gives a reason (kept on the order). */
export const REASON_EVENTS = ['order.reject', 'order.noShow'] as const satisfies readonly OrderEventType[];
export const REASON_MAX_LENGTH = 200;
/** The reason the server gives when nobody accepted an order within the acceptance deadline. */
export const NOT_ACCEPTED_IN_TIME = 'Not accepted in time';
/**
 * Minutes a pending order waits for the branch before the server rejects it (server/orders/deadline.ts),
 * unless the branch set its own (domain/orderSettings.ts ACCEPTANCE_DEADLINE, issue 25).
 */
export const ACCEPTANCE_DEADLINE_MINUTES = ACCEPTANCE_DEADLINE.default;
/** The short lists the console offers (any other reason can be typed). */
export const REASON_CHOICES: Record<(typeof REASON_EVENTS)[number], string[]> = {
  'order.reject': ['Item sold out', 'Branch too busy', 'Closing soon', 'Cannot reach the customer', 'Suspected fake order'],
  'order.noShow': ['Customer did not come', 'Customer did not answer the phone', 'Customer cancelled at the branch'],
};
export type OrderArrival = 'none' | 'arrived' | 'served' | 'noShow';
export type OrderPayment = 'unpaid' | 'paid';
export type OrderRefund = 'none' | 'requested' | 'approved';

/** The order columns the machine owns (a row of `orders` satisfies it). */
export interface OrderLifecycleRow {
  status: string;
  arrival: string;
  payment: string;
  refund: string;
  isViewed: boolean;
  deliverySystem: string;
}

export interface OrderLifecycleColumns {
  status: OrderStatus;
  arrival: OrderArrival;
  payment: OrderPayment;
  refund: OrderRefund;
  isViewed: boolean;
}
