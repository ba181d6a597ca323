import { describe, expect, it } from 'vitest';
import {
  DELIVERY_LABELS, DELIVERY_SYSTEMS, ORDER_EVENT_TYPES, ORDER_STATUS_TYPES, ORDER_STATUSES, orderLifecycleMachine, STATUS_EVENTS,
  STATUS_LABELS, statusOfEvent,
} from '../../machines/orderLifecycle';
import { ORDER_EVENT_CAPABILITY, PERMISSIONS } from '../../domain/permissions';

/**
 * The order vocabulary exported by the lifecycle machine (issue 11): the lists the server's
 * schemas and the console read are the machine's own, not a copy that can drift from it.
 */
describe('order vocabulary', () => {
  it('the statuses are the states of the machine\'s status region, each with its label and the event that leads there', () => {
    expect([...ORDER_STATUSES].sort()).toEqual(Object.keys(orderLifecycleMachine.states.status.states).sort());
    expect(ORDER_STATUS_TYPES.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(STATUS_LABELS).toEqual({ pending: 'Pending', accepted: 'Accepted', ready: 'Ready', closed: 'Closed', rejected: 'Rejected' });
    expect(STATUS_EVENTS).toEqual({ pending: null, accepted: 'order.accept', ready: 'order.ready', closed: 'order.close', rejected: 'order.reject' });
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

  it('every event the machine knows has its capability in the permission table', () => {
    expect(Object.keys(ORDER_EVENT_CAPABILITY).sort()).toEqual([...ORDER_EVENT_TYPES].sort());
    for (const capability of Object.values(ORDER_EVENT_CAPABILITY)) expect(PERMISSIONS).toHaveProperty([capability]);
  });
});
