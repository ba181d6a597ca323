/**
 * What the live order feed tells the order screens that are open: refetch now (2 s after a new
 * order, or after a reconnection), or an order changed elsewhere. A plain channel, like notify.ts.
 */
export type OrderSignal = { type: 'refresh' } | { type: 'changed'; orderId: number };
type Listener = (signal: OrderSignal) => void;

const listeners = new Set<Listener>();

export function signalOrders(signal: OrderSignal) {
  listeners.forEach((l) => l(signal));
}

export function onOrderSignal(listener: Listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}
