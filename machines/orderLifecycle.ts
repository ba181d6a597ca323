import { and, not, or, setup, stateIn, transition, type SnapshotFrom, type StateValue } from 'xstate';
import type { OrderEventType, OrderLifecycleEvent } from '../domain/orderEvents';
import type {
  DeliverySystem, OrderArrival, OrderLifecycleColumns, OrderLifecycleRow, OrderPayment, OrderRefund, OrderStatus,
} from './orderVocabulary';

/**
 * Every order's lifecycle (SPEC.md 4 "Orders"; the spec does not list the allowed transitions,
 * so this file is where they are decided). The server runs it to decide whether a change is
 * allowed (server/orders/transition.ts, authoritative); the console runs it to decide which
 * buttons show (`snapshot.can(event)`).
 *
 * Five parallel regions, stored 1:1 in the `orders` columns of the same name
 * (status, arrival, payment, refund; `read` is the boolean is_viewed):
 *
 * | region  | from               | event               | to        | allowed when                                         |
 * |---------|--------------------|---------------------|-----------|------------------------------------------------------|
 * | status  | pending            | order.accept        | accepted  | always                                               |
 * | status  | pending            | order.reject        | rejected  | always                                               |
 * | status  | accepted           | order.ready         | ready     | always                                               |
 * | status  | accepted, ready    | order.close         | closed    | always                                               |
 * | status  | accepted, ready    | order.serve         | closed    | car service, arrival none/arrived (serving ends it)  |
 * | status  | pending, accepted, ready | order.noShow  | closed    | pickup or car service, arrival none/arrived          |
 * | arrival | none               | order.arrive        | arrived   | car service, status pending/accepted/ready           |
 * | arrival | none, arrived      | order.serve         | served    | car service, status accepted/ready                   |
 * | arrival | none, arrived      | order.noShow        | noShow    | pickup or car service, status pending/accepted/ready |
 * | payment | unpaid             | order.markPaid      | paid      | always (money received is a fact, even on a rejected order) |
 * | payment | unpaid             | order.close / order.serve with cashCollected | paid | as that close or serve (cash taken at the branch, one step) |
 * | read    | unread             | order.markRead      | read      | always                                               |
 * | refund  | none               | order.requestRefund | requested | payment paid, status not rejected                    |
 * | refund  | requested          | order.approveRefund | approved  | always                                               |
 * | status  | pending, accepted, ready | order.approveRefund | rejected | refund requested (the same step as the refund region)|
 * | status  | scheduled          | order.fire          | pending   | the system only, at the order's fire time (issue 25) |
 * | status  | scheduled          | order.reject        | rejected  | always (the branch cannot make it then)              |
 * | status  | scheduled          | order.approveRefund | rejected  | refund requested                                     |
 *
 * Decisions where the spec is silent:
 * - ready (issue 11) is the step the customer waits for: accepted → ready → closed. Closing straight
 *   from accepted stays allowed (a branch that hands the order over at once, and the mobile clients
 *   that only know the four legacy statuses). Ready is listed last, so the legacy status ids 1–4 keep their meaning.
 * - reject and no-show carry the operator's reason (`reason` on the event, REASON_EVENTS); the
 *   server requires it and keeps it on the order, the machine itself does not look at it.
 * - rejected and closed are terminal: nothing re-opens an order, and a status never goes back to pending.
 * - serving and no-show both finish the order (status closed in the same step); the arrival
 *   region records how it ended. Both regions react to the same event, with matching guards,
 *   so they always move together or not at all.
 * - a car may be served without having signalled "arrived" first (staff see the car), but only
 *   once the order is accepted. A pickup order has no arrival step, only no-show. Delivery has neither.
 * - an approved refund ends an open order: pending or accepted become rejected in the same step
 *   (the money is going back, so nobody may accept, make or close it any more). A closed or
 *   rejected order keeps its status. Issue 11: a refunded pending order could still be accepted.
 * - only paid orders can be refunded. A rejected paid order gives its money back by itself, in full
 *   (issue 21, server/payments/refunds.ts: the refund row is written in the rejecting step), so nothing
 *   is left to ask for: a refund is requested of a paid order that is not rejected. A request made
 *   before the rejection can still be approved (it gives back what is left: nothing). A refund request
 *   is approved at most once; there is no "refunded" payment state: how the money went back (pending,
 *   refunded, failed, owed at the branch) is the refund's own record, not an order state.
 * - an order for later (issue 25) whose fire time (the chosen time less the branch's preparation
 *   minutes) is still ahead is placed `scheduled`: the kitchen does not see it yet, so it cannot be
 *   accepted, and no acceptance deadline runs. At its fire time the server's job runner sends
 *   `order.fire` (server/orders/fire.ts; no role sends it, domain/permissions.ts) and it is pending like a new order:
 *   the alert, auto-accept and the deadline start from then. Before that the branch may reject it
 *   (with a reason: it cannot make it then) and an approved refund ends it, as for a pending order.
 *   Scheduled is listed after the others, so the legacy status ids 1–5 keep their meaning; it is not
 *   an "open" status of the kitchen's lists, nor has it an arrival step (a car waits for a fired order).
 * - repeating markPaid on a paid order or markRead on a read order is a no-op, not an error
 *   (`isRepeat`): payment callbacks retry and several screens mark the same order read.
 */

export type { OrderLifecycleEvent, OrderEventType };
export * from './orderVocabulary';
export { EVENT_VERBS, refusalMessage } from './orderRefusal';

export interface OrderLifecycleContext { deliverySystem: DeliverySystem }

const isOpen = or([stateIn({ status: 'pending' }), stateIn({ status: 'accepted' }), stateIn({ status: 'ready' })]);
const isAccepted = or([stateIn({ status: 'accepted' }), stateIn({ status: 'ready' })]);
const isWaiting = or([stateIn({ arrival: 'none' }), stateIn({ arrival: 'arrived' })]);

export const orderLifecycleMachine = setup({
  types: {
    context: {} as OrderLifecycleContext,
    events: {} as OrderLifecycleEvent,
    input: {} as Partial<OrderLifecycleContext> | undefined,
  },
  guards: {
    isCarService: ({ context }) => context.deliverySystem === 'carService',
    hasArrivalStep: ({ context }) => context.deliverySystem === 'carService' || context.deliverySystem === 'pickup',
    isOpen,
    isAccepted,
    isWaiting,
    isRefundable: and([stateIn({ payment: 'paid' }), not(stateIn({ status: 'rejected' }))]),
    isRefundRequested: stateIn({ refund: 'requested' }),
    /** Closing or serving with the cash taken at the branch (issue 21): the order is paid in the same step. */
    collectsCash: ({ event }) => (event.type === 'order.close' || event.type === 'order.serve') && event.cashCollected === true,
  },
}).createMachine({
  id: 'orderLifecycle',
  type: 'parallel',
  context: ({ input }) => ({ deliverySystem: input?.deliverySystem ?? 'pickup' }),
  states: {
    status: {
      initial: 'pending',
      states: {
        pending: {
          meta: { label: 'Pending' },
          on: {
            'order.accept': 'accepted',
            'order.reject': 'rejected',
            'order.noShow': { target: 'closed', guard: and(['hasArrivalStep', 'isWaiting']) },
            'order.approveRefund': { target: 'rejected', guard: 'isRefundRequested' },
          },
        },
        accepted: {
          meta: { label: 'Accepted', event: 'order.accept' },
          on: {
            'order.ready': 'ready',
            'order.close': 'closed',
            'order.serve': { target: 'closed', guard: and(['isCarService', 'isWaiting']) },
            'order.noShow': { target: 'closed', guard: and(['hasArrivalStep', 'isWaiting']) },
            'order.approveRefund': { target: 'rejected', guard: 'isRefundRequested' },
          },
        },
        rejected: { meta: { label: 'Rejected', event: 'order.reject' } },
        closed: { meta: { label: 'Closed', event: 'order.close' } },
        ready: {
          meta: { label: 'Ready', event: 'order.ready' },
          on: {
            'order.close': 'closed',
            'order.serve': { target: 'closed', guard: and(['isCarService', 'isWaiting']) },
            'order.noShow': { target: 'closed', guard: and(['hasArrivalStep', 'isWaiting']) },
            'order.approveRefund': { target: 'rejected', guard: 'isRefundRequested' },
          },
        },
        // Placed for a later time (issue 25): waits for its fire time, then reaches the kitchen as pending.
        scheduled: {
          meta: { label: 'Scheduled' },
          on: {
            'order.fire': 'pending',
            'order.reject': 'rejected',
            'order.approveRefund': { target: 'rejected', guard: 'isRefundRequested' },
          },
        },
      },
    },
    arrival: {
      initial: 'none',
      states: {
        none: {
          on: {
            'order.arrive': { target: 'arrived', guard: and(['isCarService', 'isOpen']) },
            'order.serve': { target: 'served', guard: and(['isCarService', 'isAccepted']) },
            'order.noShow': { target: 'noShow', guard: and(['hasArrivalStep', 'isOpen']) },
          },
        },
        arrived: {
          on: {
            'order.serve': { target: 'served', guard: and(['isCarService', 'isAccepted']) },
            'order.noShow': { target: 'noShow', guard: and(['hasArrivalStep', 'isOpen']) },
          },
        },
        served: {},
        noShow: {},
      },
    },
    payment: {
      initial: 'unpaid',
      states: {
        unpaid: {
          on: {
            'order.markPaid': 'paid',
            // The same guards as the status region's close and serve, so both regions move together or not at all.
            'order.close': { target: 'paid', guard: and(['collectsCash', 'isAccepted']) },
            'order.serve': { target: 'paid', guard: and(['collectsCash', 'isCarService', 'isAccepted', 'isWaiting']) },
          },
        },
        paid: {},
      },
    },
    read: {
      initial: 'unread',
      states: {
        unread: { on: { 'order.markRead': 'read' } },
        read: {},
      },
    },
    refund: {
      initial: 'none',
      states: {
        none: { on: { 'order.requestRefund': { target: 'requested', guard: 'isRefundable' } } },
        requested: { on: { 'order.approveRefund': 'approved' } },
        approved: {},
      },
    },
  },
});

export type OrderLifecycleSnapshot = SnapshotFrom<typeof orderLifecycleMachine>;
/** The machine snapshot an order row is in. */
export function orderSnapshotFrom(row: OrderLifecycleRow): OrderLifecycleSnapshot {
  return orderLifecycleMachine.resolveState({
    value: {
      status: row.status,
      arrival: row.arrival,
      payment: row.payment,
      read: row.isViewed ? 'read' : 'unread',
      refund: row.refund,
    },
    context: { deliverySystem: row.deliverySystem as DeliverySystem },
  });
}

/** The order columns a snapshot stands for. */
export function columnsOf(snapshot: OrderLifecycleSnapshot): OrderLifecycleColumns {
  const v = snapshot.value as Record<string, string>;
  return {
    status: v.status as OrderStatus,
    arrival: v.arrival as OrderArrival,
    payment: v.payment as OrderPayment,
    refund: v.refund as OrderRefund,
    isViewed: v.read === 'read',
  };
}

/** The new column values after `event`, or null when the machine refuses it. Pure. */
export function nextOrderState(row: OrderLifecycleRow, event: OrderLifecycleEvent): OrderLifecycleColumns | null {
  const snapshot = orderSnapshotFrom(row);
  if (!snapshot.can(event)) return null;
  const [next] = transition(orderLifecycleMachine, snapshot, event);
  return columnsOf(next);
}

/** True when the order already is where `event` leads and repeating it is harmless (markPaid, markRead). */
export function isRepeat(row: OrderLifecycleRow, event: OrderLifecycleEvent): boolean {
  if (event.type === 'order.markPaid') return row.payment === 'paid';
  if (event.type === 'order.markRead') return row.isViewed;
  return false;
}

/** Every event the machine knows, read from its config. */
export const ORDER_EVENT_TYPES: OrderEventType[] = [...new Set(
  Object.values(orderLifecycleMachine.states).flatMap((region) =>
    Object.values(region.states).flatMap((state) => Object.keys(state.config.on ?? {}))),
)] as OrderEventType[];

export interface OrderStatusType {
  id: number;
  name: OrderStatus;
  displayName: string;
  /** The event that moves an order into this status through Store/UpdateOrderStatus; null for the initial status. */
  event: OrderEventType | null;
}

/** The statuses of Store/GetOrderStatusTypes, read from the machine's `status` region (not a second list). */
export const ORDER_STATUS_TYPES: OrderStatusType[] = Object.entries(orderLifecycleMachine.states.status.states).map(
  ([name, node], i) => {
    const meta = (node.config.meta ?? {}) as { label?: string; event?: OrderEventType };
    return { id: i + 1, name: name as OrderStatus, displayName: meta.label ?? name, event: meta.event ?? null };
  },
);

/** Each status's label, from the machine's `meta.label`. */
export const STATUS_LABELS = Object.fromEntries(ORDER_STATUS_TYPES.map((s) => [s.name, s.displayName])) as Readonly<Record<OrderStatus, string>>;

/** The event that moves an order into each status (null for the initial one), from the machine's `meta.event`. */
export const STATUS_EVENTS = Object.fromEntries(ORDER_STATUS_TYPES.map((s) => [s.name, s.event])) as Readonly<Record<OrderStatus, OrderEventType | null>>;

/** The status an event leads to through Store/UpdateOrderStatus (the inverse of STATUS_EVENTS). */
export const statusOfEvent = (event: OrderEventType): OrderStatus | undefined =>
  ORDER_STATUS_TYPES.find((s) => s.event === event)?.name;

/** The state value of an order row, for comparisons in tests and views. */
export const stateValueOf = (row: OrderLifecycleRow): StateValue => orderSnapshotFrom(row).value;

/** Events the console may offer for this order (the server still decides). */
export const availableEvents = (row: OrderLifecycleRow): OrderEventType[] => {
  const snapshot = orderSnapshotFrom(row);
  return ORDER_EVENT_TYPES.filter((type) => snapshot.can({ type } as OrderLifecycleEvent));
};
