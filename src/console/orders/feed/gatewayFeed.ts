import { print } from 'graphql';
import { fromCallback } from 'xstate';
import { graphql } from '../../../gql';
import type { FeedScope, LiveOrderFeedEvent } from '../../../../machines/liveOrderFeed';

export const OrderEventsSubscription = graphql(`
  subscription OrderEvents($branchId: Int) {
    orderEvents(branchId: $branchId) { type orderId branchId brandId at }
  }
`);

export interface GatewayFeedOptions {
  /** The gateway's GraphQL endpoint (the app's /graphql). */
  uri: string;
  /** The bearer token at connection time. */
  token: () => string | null;
}

interface SseMessage { event: string; data: string }
type Payload = { data?: { orderEvents?: { type: string; orderId: number | null } } | null; errors?: { message: string; extensions?: { status?: number } }[] };

/**
 * Port `subscribe` of the live order feed over the gateway's `orderEvents` subscription, as
 * graphql-sse's distinct-connection mode: one POST to /graphql with `Accept: text/event-stream`,
 * read as a stream (EventSource cannot send the bearer token). The server filters the events to
 * the caller's scope, and sends a heartbeat every few seconds (`feed.heartbeat`); the machine,
 * not this reader, decides that a silent feed is dead. fetch is looked up per connection, so a
 * test can stand between.
 */
export function gatewayFeed(opts: GatewayFeedOptions) {
  return fromCallback<LiveOrderFeedEvent, FeedScope>(({ input, sendBack }) => {
    const controller = new AbortController();
    let over = false;
    const end = (event: LiveOrderFeedEvent) => {
      if (over) return;
      over = true;
      controller.abort();
      sendBack(event);
    };

    const onMessage = (message: SseMessage) => {
      if (message.event === 'complete') return end({ type: 'feed.dropped', reason: 'The server closed the live order feed.' });
      if (message.event !== 'next' || !message.data) return;
      const payload = JSON.parse(message.data) as Payload;
      const error = payload.errors?.[0];
      if (error) {
        const status = error.extensions?.status;
        return end(status === 401 || status === 403 ? { type: 'feed.refused', reason: error.message } : { type: 'feed.dropped', reason: error.message });
      }
      const event = payload.data?.orderEvents;
      if (event?.type === 'feed.heartbeat') return sendBack({ type: 'feed.heartbeat' });
      if (event?.orderId != null) sendBack({ type: 'feed.order', orderId: event.orderId, change: event.type === 'order.created' ? 'created' : 'changed' });
    };

    (async () => {
      const token = opts.token();
      const res = await globalThis.fetch(opts.uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query: print(OrderEventsSubscription), variables: { branchId: input.branchId } }),
        signal: controller.signal,
      });
      if (res.status === 401 || res.status === 403) return end({ type: 'feed.refused', reason: res.statusText });
      if (!res.ok || !res.body || !res.headers.get('content-type')?.includes('text/event-stream')) {
        return end({ type: 'feed.dropped', reason: `The live order feed answered ${res.status}.` });
      }
      // The server has subscribed us before it answers, so from here on nothing is missed.
      sendBack({ type: 'feed.connected' });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
          const message = parseBlock(block);
          if (message) onMessage(message);
          if (over) return;
        }
      }
      end({ type: 'feed.dropped', reason: 'The live order feed was cut.' });
    })().catch((e: unknown) => end({ type: 'feed.dropped', reason: e instanceof Error ? e.message : String(e) }));

    return () => {
      over = true;
      controller.abort();
    };
  });
}

/** One SSE block ("event: …", "data: …" lines); comments (keep-alives) give null. */
function parseBlock(block: string): SseMessage | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length || event !== 'message' ? { event, data: data.join('\n') } : null;
}
