import { EventEmitter } from 'node:events';

/**
 * What the live order feed carries: a new order, or a change of one, for a branch. An order for
 * later is `order.scheduled` when placed (the board lists it, no alert) and `order.fired` when it
 * reaches the kitchen at its fire time (the alert, as for a new order; server/orders/fire.ts).
 */
export interface OrderEvent {
  type: 'order.created' | 'order.changed' | 'order.scheduled' | 'order.fired';
  orderId: number;
  branchId: number;
  brandId: number;
  at: string;
}

/**
 * The port the order services publish to and the live feed subscribes to. The default here is
 * in-process only; server/events/ swaps in a shared channel (PostgreSQL LISTEN/NOTIFY) so that
 * several server processes all see every order.
 */
export interface OrderEvents {
  publish(event: Omit<OrderEvent, 'at'>): Promise<void>;
  subscribe(listener: (event: OrderEvent) => void): () => void;
  close(): Promise<void>;
}

export function inMemoryOrderEvents(): OrderEvents {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    async publish(event) { bus.emit('event', { ...event, at: new Date().toISOString() }); },
    subscribe(listener) { bus.on('event', listener); return () => bus.off('event', listener); },
    async close() { bus.removeAllListeners(); },
  };
}
