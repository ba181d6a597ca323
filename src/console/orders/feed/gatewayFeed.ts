import { fromCallback } from 'xstate';
import { graphql } from '../../../gql';
import { subscribeLive, type LiveTransport } from '../../../lib/liveSubscription';
import type { FeedScope, LiveOrderFeedEvent } from '../../../../machines/liveOrderFeed';

export const OrderEventsSubscription = graphql(`
  subscription OrderEvents($branchId: Int, $after: ID) {
    orderEvents(branchId: $branchId, after: $after) { id type orderId branchId brandId at }
  }
`);

/** How each server event reaches the feed: an order for later placed is a change (the lists), fired a new order (the alert). */
const CHANGE_OF: Record<string, 'created' | 'changed' | 'fired'> = { 'order.created': 'created', 'order.fired': 'fired' };

/**
 * Port `subscribe` of the live order feed over the gateway's `orderEvents` subscription, through
 * graphql-sse (src/lib/liveSubscription.ts, where a 401 ends the session). The server filters the
 * events to the caller's scope and sends a heartbeat every few seconds (`feed.heartbeat`); the
 * machine, not this adapter, decides that a silent feed is dead and when to reconnect.
 *
 * Each connection after the first resumes after the last event id it heard (issue 26), on
 * whichever process the load balancer picks: the server replays what was missed, changes
 * included. When it cannot (`feed.reset`: the events are older than it keeps), the machine is
 * poked to catch up from the lists, as it does on every connection anyway.
 */
export function gatewayFeed(transport: LiveTransport) {
  let lastEventId: string | null = null;
  return fromCallback<LiveOrderFeedEvent, FeedScope>(({ input, sendBack }) =>
    subscribeLive(transport, OrderEventsSubscription, { branchId: input.branchId, after: lastEventId }, {
      connected: () => sendBack({ type: 'feed.connected' }),
      next: ({ orderEvents: event }) => {
        if (event.type === 'feed.heartbeat') return sendBack({ type: 'feed.heartbeat' });
        if (event.type === 'feed.reset') return sendBack({ type: 'feed.poke' });
        if (event.id != null) lastEventId = event.id;
        if (event.orderId != null) sendBack({ type: 'feed.order', orderId: event.orderId, change: CHANGE_OF[event.type] ?? 'changed' });
      },
      refused: (reason) => sendBack({ type: 'feed.refused', reason }),
      dropped: (reason) => sendBack({ type: 'feed.dropped', reason }),
    }));
}
