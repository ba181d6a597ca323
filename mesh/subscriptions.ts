import { GraphQLError } from 'graphql';
import type { OrderEvent } from '../server/events/orderEvents';
import type { LiveOrderFeedSource, OrderEventFilter } from '../server/events/orderFeed';
import { getLiveOrderFeed } from './liveFeed';
import { TIMINGS } from '../domain/constants';
import { errorExtensions } from '../domain/errorEnvelope';

/**
 * Sent to every subscriber every TIMINGS.feedHeartbeatMs, whatever their scope: a console counts
 * its feed as live only while it hears these (issue 11), so a stalled server or a half-open
 * connection shows as down within seconds instead of looking like a quiet shop.
 */
export interface FeedHeartbeat { type: 'feed.heartbeat'; id: null; orderId: null; branchId: null; brandId: null; at: string }
/**
 * Sent once to a subscriber that resumed (`after`, or the `Last-Event-ID` header) when some events
 * after its id can no longer be replayed (older than the table keeps, or a resume id this database
 * never had): it must catch up another way (the console: the lists' `CreatedAfterId`).
 */
export interface FeedReset { type: 'feed.reset'; id: null; orderId: null; branchId: null; brandId: null; at: string }
type FeedMessage = OrderEvent | FeedHeartbeat | FeedReset;
type FeedArgs = { after?: string | null };

/**
 * `subscription { orderEvents(branchId, after) { id type orderId branchId brandId at } }`: the live
 * order feed through the gateway (types in .meshrc.yaml additionalTypeDefs). Clients use SSE
 * (`Accept: text/event-stream` on /graphql). A staff bearer token is required; each subscriber
 * sees only the orders of their scope. A subscriber that reconnects, to any process, passes the
 * last event `id` it saw as `after` (or as the `Last-Event-ID` header): the events it missed come
 * first, from the database, filtered like the live ones, each once (issue 26).
 */
export const resolvers = {
  Subscription: {
    orderEvents: {
      subscribe: (_root: unknown, args: { branchId?: number | null } & FeedArgs, context: GatewayContext) =>
        followEvents((feed) => feed.authorize(authorizationOf(context), args.branchId ?? null), resumeAfter(args, context)),
      resolve: (event: FeedMessage) => event,
    },
    /**
     * One order's changes, for the shop's /track-order: its customer, or a guest holding its ohash
     * (a wrong ohash is a 404, like GetOrderDetail). The same heartbeat as the staff feed, so the
     * page knows the stream is alive and polls only when it is not.
     */
    orderTracking: {
      subscribe: (_root: unknown, args: { orderId: number; ohash?: string | null } & FeedArgs, context: GatewayContext) =>
        followEvents((feed) => feed.authorizeOrder(authorizationOf(context), args.orderId, args.ohash ?? null), resumeAfter(args, context)),
      resolve: (event: FeedMessage) => event,
    },
  },
};
export default resolvers;

/** The events the caller may see (`authorize` throws a 401/403/404 ApiError otherwise), with the heartbeat. */
async function followEvents(authorize: (feed: LiveOrderFeedSource) => Promise<OrderEventFilter>, after: number | null | Error) {
  const feed = getLiveOrderFeed();
  if (!feed) throw feedError(503, 'The live order feed is not available on this gateway.');
  let filter: OrderEventFilter;
  try {
    filter = await authorize(feed);
  } catch (err) {
    const e = err as { status?: number; message?: string };
    throw feedError(e.status ?? 500, e.message ?? 'The live order feed failed.');
  }
  // After the 401/403: a bad cursor is a 400 only for a caller who may listen.
  if (after instanceof Error) throw feedError(400, after.message);
  return eventStream(
    (listener, end, reset) => feed.subscribe(listener, end, after === null ? undefined : { after, reset }),
    filter, TIMINGS.feedHeartbeatMs,
  );
}

/** The subscriber's last event id: the `after` argument, else the SSE `Last-Event-ID` header; an Error when it is not an id. */
function resumeAfter(args: FeedArgs, context: GatewayContext): number | null | Error {
  const given = args.after ?? headerOf(context, 'last-event-id');
  if (given == null || given === '') return null;
  const after = Number(given);
  return Number.isSafeInteger(after) && after >= 0
    ? after
    : new Error(`'after' must be the id of an order event (a whole number), not '${String(given).slice(0, 40)}'.`);
}

interface GatewayContext {
  headers?: Record<string, string | undefined>;
  request?: { headers: { get(name: string): string | null } };
  req?: { headers: Record<string, string | string[] | undefined> };
}

function authorizationOf(context: GatewayContext): string | undefined {
  return headerOf(context, 'authorization');
}

function headerOf(context: GatewayContext, name: string): string | undefined {
  const fromReq = context.req?.headers?.[name];
  return context.headers?.[name]
    ?? context.request?.headers.get(name)
    ?? (Array.isArray(fromReq) ? fromReq[0] : fromReq)
    ?? undefined;
}

const feedError = (status: number, message: string) =>
  new GraphQLError(message, { extensions: errorExtensions(status, message, null, 'INTERNAL_SERVER_ERROR') });

/**
 * The events one subscriber may see, and a heartbeat every `heartbeatMs`, as an async iterator
 * that unsubscribes when the client leaves.
 */
export function eventStream(
  subscribe: (listener: (e: OrderEvent) => void, end: () => void, reset: () => void) => () => void, filter: OrderEventFilter, heartbeatMs: number,
): AsyncIterableIterator<FeedMessage> {
  const queue: FeedMessage[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const unsubscribe = subscribe((event) => {
    queue.push(event);
    wake?.();
  }, () => { void finish(); }, () => {
    queue.push({ type: 'feed.reset', id: null, orderId: null, branchId: null, brandId: null, at: new Date().toISOString() });
    wake?.();
  });
  const heartbeat = setInterval(() => {
    // One pending heartbeat is enough: a subscriber that is not reading needs no pile of them.
    if (queue.some((m) => m.type === 'feed.heartbeat')) return;
    queue.push({ type: 'feed.heartbeat', id: null, orderId: null, branchId: null, brandId: null, at: new Date().toISOString() });
    wake?.();
  }, heartbeatMs);
  heartbeat.unref?.();
  function finish() {
    if (!done) {
      done = true;
      clearInterval(heartbeat);
      unsubscribe();
      wake?.();
    }
    return Promise.resolve({ value: undefined, done: true } as IteratorReturnResult<undefined>);
  }
  return {
    async next(): Promise<IteratorResult<FeedMessage>> {
      while (!done) {
        const event = queue.shift();
        if (event) {
          if (event.type === 'feed.heartbeat' || event.type === 'feed.reset' || await filter(event)) return { value: event, done: false };
          continue;
        }
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = null;
      }
      return { value: undefined, done: true };
    },
    return: finish,
    async throw(err: unknown) {
      await finish();
      throw err;
    },
    [Symbol.asyncIterator]() { return this; },
  };
}
