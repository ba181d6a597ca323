import { useMemo, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromCallback } from 'xstate';
import { graphql } from '../../gql';
import { subscribeLiveOnDemand, useLiveTransport } from '../../lib/endpoint';
import { orderTrackingMachine, selectTrackingStatus, type OrderTrackingEvent } from '../../../machines/orderTracking';

export const OrderTrackingSubscription = graphql(`
  subscription OrderTracking($orderId: Int!, $ohash: String) {
    orderTracking(orderId: $orderId, ohash: $ohash) { type orderId }
  }
`);

/**
 * Follows one open order live while mounted (machines/orderTracking.ts over graphql-sse): the
 * page mounts it while the order is pending, accepted or ready, keyed by order and ohash, and
 * `onChange` reads the order again. Renders only a hidden marker of the stream's state. graphql-sse is
 * fetched when it starts, so no other shop page loads it.
 */
export function FollowOrder({ orderId, ohash, onChange }: { orderId: number; ohash: string | null; onChange: () => void }) {
  const transport = useLiveTransport();
  const latest = useRef(onChange);
  latest.current = onChange;
  const machine = useMemo(() => orderTrackingMachine.provide({
    actors: {
      subscribe: fromCallback<OrderTrackingEvent>(({ sendBack }) => subscribeLiveOnDemand(transport, OrderTrackingSubscription, { orderId, ohash }, {
        connected: () => sendBack({ type: 'tracking.connected' }),
        next: ({ orderTracking }) => sendBack({ type: orderTracking.type === 'feed.heartbeat' ? 'tracking.heartbeat' : 'tracking.changed' }),
        refused: (reason) => sendBack({ type: 'tracking.refused', reason }),
        dropped: (reason) => sendBack({ type: 'tracking.dropped', reason }),
      })),
    },
    actions: { readOrder: () => latest.current() },
  }), [transport, orderId, ohash]);
  const tracker = useActorRef(machine);
  const status = useSelector(tracker, selectTrackingStatus);
  return <span hidden data-testid="order-tracking" data-status={status} />;
}
