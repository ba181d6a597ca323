/**
 * The events of an order's lifecycle (machines/orderLifecycle.ts decides which one an order
 * allows; domain/permissions.ts says which capability sends each). Here, on the ground floor, so
 * domain/ reads them without importing machines/.
 */
export type OrderLifecycleEvent =
  | { type: 'order.accept' }
  | { type: 'order.reject'; reason?: string }
  | { type: 'order.ready' }
  | { type: 'order.close'; cashCollected?: boolean }
  | { type: 'order.markPaid' }
  | { type: 'order.arrive' }
  | { type: 'order.serve'; cashCollected?: boolean }
  | { type: 'order.noShow'; reason?: string }
  | { type: 'order.markRead' }
  | { type: 'order.requestRefund' }
  | { type: 'order.approveRefund' }
  /** An order for later reaches the kitchen at its fire time (scheduled → pending); sent by the server only. */
  | { type: 'order.fire' };
export type OrderEventType = OrderLifecycleEvent['type'];
