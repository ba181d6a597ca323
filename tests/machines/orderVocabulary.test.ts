import { describe, expect, it } from 'vitest';
import {
  DELIVERY_LABELS, DELIVERY_SYSTEMS, ORDER_EVENT_TYPES, ORDER_STATUS_TYPES, ORDER_STATUSES, orderLifecycleMachine, STATUS_EVENTS,
  STATUS_LABELS, statusOfEvent,
} from '../../machines/orderLifecycle';
import { ASSIGNABLE_ROLES, canSendOrderEvent, ORDER_EVENT_CAPABILITY, PERMISSIONS } from '../../domain/permissions';

/**
 * The order vocabulary exported by the lifecycle machine (issue 11): the lists the server's
 * schemas and the console read are the machine's own, not a copy that can drift from it.
 */
describe('order vocabulary', () => {
  it('the statuses are the states of the machine\'s status region, each with its label and the event that leads there', () => {
    expect([...ORDER_STATUSES].sort()).toEqual(Object.keys(orderLifecycleMachine.states.status.states).sort());
    // The legacy ids 1–5 keep their meaning; scheduled (issue 25) is appended as 6.
    expect(ORDER_STATUS_TYPES.map((s) => [s.id, s.name])).toEqual([[1, 'pending'], [2, 'accepted'], [3, 'rejected'], [4, 'closed'], [5, 'ready'], [6, 'scheduled']]);
    expect(STATUS_LABELS).toEqual({ pending: 'Pending', accepted: 'Accepted', ready: 'Ready', closed: 'Closed', rejected: 'Rejected', scheduled: 'Scheduled' });
    expect(STATUS_EVENTS).toEqual({ pending: null, accepted: 'order.accept', ready: 'order.ready', closed: 'order.close', rejected: 'order.reject', scheduled: null });
    for (const status of ORDER_STATUSES) {
      const event = STATUS_EVENTS[status];
      if (event) expect(statusOfEvent(event)).toBe(status);
    }
    expect(statusOfEvent('order.markPaid')).toBeUndefined();
  });

  it('one name and one staff label per delivery mode', () => {
    expect(Object.keys(DELIVERY_LABELS)).toEqual([...DELIVERY_SYSTEMS]);
    expect(DELIVERY_LABELS.carService).toBe('Drive-thru');
  });

  it('every event the machine knows has its capability in the permission table, but order.fire, which only the server sends', () => {
    expect(Object.keys(ORDER_EVENT_CAPABILITY).sort()).toEqual(ORDER_EVENT_TYPES.filter((t) => t !== 'order.fire').sort());
    for (const role of Object.keys(ASSIGNABLE_ROLES)) expect(canSendOrderEvent(role, 'order.fire'), role).toBe(false);
    for (const capability of Object.values(ORDER_EVENT_CAPABILITY)) expect(PERMISSIONS).toHaveProperty([capability]);
  });
});
