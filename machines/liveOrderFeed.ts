import { assign, enqueueActions, fromCallback, fromPromise, raise, setup, type ActorRefFrom, type AnyActorRef, type EventObject } from 'xstate';
import { TIMINGS } from '../domain/constants';
import type {
  CatchUpResult, FeedScope, LiveOrderFeedContext, LiveOrderFeedEvent, LiveOrderFeedInput, OrderListsStale,
} from './liveOrderFeedTypes';

export type * from './liveOrderFeedTypes';

/**
 * The live order feed of the console (SPEC.md 4 "Live order feed"): each new order plays the
 * alert sound and shows 'You have a new order. #{id}', and the new-order lists refresh 2 s later.
 *
 *   online ─┬─ connecting ──feed.connected──▶ catchingUp ──▶ live
 *           └─ feed.dropped ──▶ reconnecting ──(backoff, or feed.retry when the network is back)──▶ online
 *   any 401/403 from the transport ──▶ refused (no retry: the session is over or not allowed)
 *   connecting or live, silent for `silenceMs` ──▶ reconnecting (a transport that beats)
 *
 * 'Live' means heard from lately (issue 11: the tag stayed green for 24 s after the server went
 * away). A transport that promises a heartbeat (`silenceMs` in the input; the gateway's sends one
 * every TIMINGS.feedHeartbeatMs) is dropped when it has said nothing, not even a heartbeat, for
 * `silenceMs`: a half-open connection or a stalled server looks exactly like a quiet shop otherwise.
 *
 * No order is lost across a drop: the feed remembers the newest order id it has seen, and every
 * (re)connection first fetches the orders created after it (`catchUp`). An order is announced
 * once: the feed remembers which it announced.
 *
 * An order for later is announced when it reaches the kitchen (`change: 'fired'`, issue 25), not
 * when it is placed: its id is older than the feed's start, so it is announced by the event alone
 * (still once). Catch-ups leave out orders still scheduled.
 *
 * The alert repeats (issue 11): every TIMINGS.newOrderRepeatMs the feed asks which announced
 * orders are still waiting (pending and unread: nobody has opened or accepted them) and sounds
 * again for those, until none is left.
 *
 * Ports, bound by whoever runs the machine:
 * - actor `subscribe` (callback): the transport, the gateway subscription or Firestore. It sends
 *   back `feed.connected` when it is live (again), `feed.order` per event (or `feed.poke` when it
 *   cannot promise every order, so the feed catches up), `feed.dropped` when the connection is
 *   lost and `feed.refused` when the server will not let this user listen.
 * - actor `catchUp` (promise): the ids of orders in scope created after `afterId`, ascending; with
 *   no `afterId`, none and the newest id in scope (where the feed starts).
 * - actor `stillWaiting` (promise): of the given order ids, those still pending and unread.
 * - actions `alertNewOrder` (sound and notification) and `remindWaiting` (the sound again).
 *
 * The order screens hear it through the actor system, not a module-level listener set (STYLE.md:
 * actors talk to actors): the feed runs under `systemId` LIVE_ORDER_FEED, and a board (or any view
 * that shows orders) runs `watchOrderFeed` with the feed's ref, which registers with it (`feed.watch`). The feed tells
 * its watchers `orders.stale` when their lists should be read again: 2 s after the first new order
 * of a burst, after a reconnection, and 400 ms after the first change of a burst made elsewhere.
 */

/**
 * The feed's id in its actor system. Boards are root actors of their own (a child of the feed could
 * not be stopped when its page unmounts), so they are handed the feed's ref rather than joining it.
 */
export const LIVE_ORDER_FEED = 'liveOrderFeed';
/** Changes made elsewhere are told in one go, this long after the first of a burst. */
export const ORDER_CHANGES_BATCH_MS = 400;

export const MAX_RETRY_DELAY_MS = 15_000;
const REMIND_CHECK = 'remind-check';
const MAX_REMEMBERED = 500;
/** 1 s, 2 s, 4 s … up to 15 s between reconnection attempts. */
export const retryDelayMs = (attempt: number) => Math.min(1000 * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);

export const liveOrderFeedMachine = setup({
  types: {
    context: {} as LiveOrderFeedContext,
    events: {} as LiveOrderFeedEvent,
    input: {} as LiveOrderFeedInput,
    tags: {} as 'pending',
  },
  actors: {
    subscribe: fromCallback<LiveOrderFeedEvent, FeedScope>(() => {
      throw new Error('subscribe is not bound');
    }),
    catchUp: fromPromise<CatchUpResult, { afterId: number | null; scope: FeedScope }>(async () => {
      throw new Error('catchUp is not bound');
    }),
    stillWaiting: fromPromise<number[], { orderIds: number[] }>(async () => {
      throw new Error('stillWaiting is not bound');
    }),
  },
  actions: {
    noteSilence: assign({ reason: ({ context }) => `Nothing heard from the live order feed for ${Math.round((context.silenceMs ?? 0) / 1000)} s.` }),
    alertNewOrder: (_, _params: { orderId: number }) => {},
    /** Every watcher still running reads its lists again. */
    refreshOrderLists: enqueueActions(({ context, enqueue }) => {
      for (const watcher of context.watchers) {
        if (watcher.getSnapshot().status === 'active') enqueue.sendTo(watcher, { type: 'orders.stale' } satisfies OrderListsStale);
      }
    }),
    remindWaiting: (_, _params: { orderIds: number[] }) => {},
    /** Another console changed an order: the watchers refresh once for a burst of changes. */
    orderChanged: enqueueActions(({ context, enqueue }, _params: { orderId: number }) => {
      if (context.changesScheduled) return;
      enqueue.assign({ changesScheduled: true });
      enqueue.raise({ type: 'feed.changesDue' }, { delay: ORDER_CHANGES_BATCH_MS, id: 'changes' });
    }),
  },
  guards: {
    isCreated: ({ event }) => event.type === 'feed.order' && event.change === 'created',
    isFired: ({ event }) => event.type === 'feed.order' && event.change === 'fired',
    beats: ({ context }) => context.silenceMs != null,
  },
  delays: {
    retryDelay: ({ context }) => retryDelayMs(context.attempt),
    // Never fires for a transport without a heartbeat (the guard), so any number does there.
    feedSilence: ({ context }) => context.silenceMs ?? MAX_RETRY_DELAY_MS,
  },
}).createMachine({
  id: 'liveOrderFeed',
  context: ({ input }) => ({ scope: { branchId: input.branchId }, silenceMs: input.silenceMs ?? null, lastSeenId: null, startId: null, announced: [], attempt: 0, refreshScheduled: false, waiting: [], checking: [], remindScheduled: false, wasLive: false, resync: false, reason: null, watchers: [], changesScheduled: false }),
  initial: 'online',
  states: {
    online: {
      invoke: { src: 'subscribe', input: ({ context }) => context.scope },
      initial: 'connecting',
      states: {
        connecting: { tags: ['pending'], after: { feedSilence: { guard: 'beats', target: '#liveOrderFeed.reconnecting', actions: 'noteSilence' } } },
        catchingUp: {
          tags: ['pending'],
          invoke: {
            src: 'catchUp',
            input: ({ context }) => ({ afterId: context.lastSeenId, scope: context.scope }),
            onDone: {
              target: 'live',
              actions: [
                raise(({ event }) => ({ type: 'feed.newOrders' as const, orderIds: event.output.orderIds, latestId: event.output.latestId })),
                // Back after a drop: changes made meanwhile were missed too, so the lists refetch.
                enqueueActions(({ context, enqueue }) => {
                  if (!context.resync) return;
                  enqueue.assign({ resync: false });
                  enqueue('refreshOrderLists');
                }),
              ],
            },
            onError: { target: '#liveOrderFeed.reconnecting', actions: assign({ reason: ({ event }) => messageOf(event.error) }) },
          },
        },
        live: {
          entry: assign({ attempt: 0, reason: null, wasLive: true }),
          // Each heartbeat or order starts the silence over (re-entering restarts the delay).
          after: { feedSilence: { guard: 'beats', target: '#liveOrderFeed.reconnecting', actions: 'noteSilence' } },
          on: { 'feed.heartbeat': { target: 'live', reenter: true } },
        },
      },
      on: {
        'feed.connected': { target: '.catchingUp', actions: assign({ resync: ({ context }) => context.wasLive }) },
        'feed.poke': { target: '.catchingUp', reenter: true },
        'feed.order': [
          { guard: 'isCreated', actions: [raise(({ event }) => ({ type: 'feed.newOrders' as const, orderIds: [event.orderId] })), raise({ type: 'feed.heartbeat' })] },
          // An order for later reaching the kitchen: new to the kitchen, though its id is older than the feed's start.
          { guard: 'isFired', actions: [raise(({ event }) => ({ type: 'feed.newOrders' as const, orderIds: [event.orderId], fired: true })), raise({ type: 'feed.heartbeat' })] },
          { actions: [{ type: 'orderChanged', params: ({ event }) => ({ orderId: event.orderId }) }, raise({ type: 'feed.heartbeat' })] },
        ],
        'feed.dropped': { target: 'reconnecting', actions: assign({ reason: ({ event }) => event.reason }) },
        'feed.refused': { target: 'refused', actions: assign({ reason: ({ event }) => event.reason }) },
      },
    },
    reconnecting: {
      tags: ['pending'],
      entry: assign({ attempt: ({ context }) => context.attempt + 1 }),
      after: { retryDelay: 'online' },
      on: { 'feed.retry': 'online' },
    },
    refused: {},
  },
  on: {
    'feed.newOrders': {
      // Each order once, oldest first; one list refresh 2 s after the first order of a burst.
      actions: enqueueActions(({ context, event, enqueue }) => {
        const announced = new Set(context.announced);
        const fresh = [...new Set(event.orderIds)].sort((a, b) => a - b)
          .filter((id) => (event.fired || context.startId === null || id > context.startId) && !announced.has(id));
        for (const orderId of fresh) enqueue({ type: 'alertNewOrder', params: { orderId } });
        const last = fresh.length ? Math.max(...fresh) : null;
        enqueue.assign({
          waiting: [...context.waiting, ...fresh].slice(-MAX_REMEMBERED),
          lastSeenId: maxId(maxId(context.lastSeenId, last), event.latestId ?? null),
          // Where the feed started, when this is the first catch-up.
          startId: context.startId ?? (event.latestId !== undefined ? event.latestId : null),
          announced: [...context.announced, ...fresh].slice(-MAX_REMEMBERED),
        });
        if (fresh.length && !context.remindScheduled) {
          enqueue.assign({ remindScheduled: true });
          enqueue.raise({ type: 'feed.remindDue' }, { delay: TIMINGS.newOrderRepeatMs, id: 'remind' });
        }
        if (fresh.length && !context.refreshScheduled) {
          enqueue.assign({ refreshScheduled: true });
          enqueue.raise({ type: 'feed.refreshDue' }, { delay: TIMINGS.newOrderRefreshMs, id: 'refresh' });
        }
      }),
    },
    'feed.refreshDue': { actions: [assign({ refreshScheduled: false }), 'refreshOrderLists'] },
    'feed.changesDue': { actions: [assign({ changesScheduled: false }), 'refreshOrderLists'] },
    'feed.watch': {
      // Stopped watchers are dropped here (a board that unmounted never says goodbye if it errored).
      actions: assign({ watchers: ({ context, event }) => [...context.watchers.filter((w) => w !== event.watcher && w.getSnapshot().status === 'active'), event.watcher] }),
    },
    'feed.unwatch': { actions: assign({ watchers: ({ context, event }) => context.watchers.filter((w) => w !== event.watcher) }) },
    // Which announced orders are still waiting: asked of the server, the one that knows.
    'feed.remindDue': {
      actions: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ remindScheduled: false });
        if (!context.waiting.length) return;
        enqueue.assign({ checking: context.waiting });
        enqueue.spawnChild('stillWaiting', { id: REMIND_CHECK, input: { orderIds: context.waiting } });
      }),
    },
    [`xstate.done.actor.${REMIND_CHECK}`]: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const still = new Set((event as unknown as { output: number[] }).output);
        // Orders announced while the check ran stay waiting too.
        const waiting = context.waiting.filter((id: number) => still.has(id) || !context.checking.includes(id));
        enqueue.assign({ waiting, checking: [] });
        if (!waiting.length) return;
        const remind = waiting.filter((id: number) => still.has(id));
        if (remind.length) enqueue({ type: 'remindWaiting', params: { orderIds: remind } });
        enqueue.assign({ remindScheduled: true });
        enqueue.raise({ type: 'feed.remindDue' }, { delay: TIMINGS.newOrderRepeatMs, id: 'remind' });
      }),
    },
    [`xstate.error.actor.${REMIND_CHECK}`]: {
      // Could not ask (the server is away): keep them waiting, ask again next time.
      actions: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ checking: [] });
        if (!context.waiting.length || context.remindScheduled) return;
        enqueue.assign({ remindScheduled: true });
        enqueue.raise({ type: 'feed.remindDue' }, { delay: TIMINGS.newOrderRepeatMs, id: 'remind' });
      }),
    },
  },
});

const maxId = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export type LiveOrderFeedRef = ActorRefFrom<typeof liveOrderFeedMachine>;
type FeedSnapshot = ReturnType<LiveOrderFeedRef['getSnapshot']>;

/** 'live' | 'connecting' | 'reconnecting' | 'refused', for the status tag in the top bar. */
export const selectFeedStatus = (s: FeedSnapshot): 'live' | 'connecting' | 'reconnecting' | 'refused' =>
  s.matches('refused') ? 'refused' : s.matches('reconnecting') ? 'reconnecting' : s.matches({ online: 'live' }) ? 'live' : 'connecting';
export const selectFeedReason = (s: FeedSnapshot) => s.context.reason;
/**
 * Whether live updates are down, for the page-wide banner: refused, waiting to retry, or trying
 * again after a drop (attempt > 0) until the feed is live. The first connection is not 'down', and
 * neither flickers the banner off while a reconnection is being tried.
 */
export const selectFeedDown = (s: FeedSnapshot): boolean =>
  s.matches('refused') || s.matches('reconnecting') || (!s.matches({ online: 'live' }) && s.context.attempt > 0);

/**
 * Run by a board (or any view of orders): registers with the feed (`input.feed`) and sends its
 * parent `input.onStale` whenever the feed says the lists are stale; unregisters when it stops.
 * Without a feed (a role that hears none, a test) it does nothing.
 */
export const watchOrderFeed = fromCallback<EventObject, { onStale: EventObject; feed?: AnyActorRef | null }>(({ self, input, receive, sendBack }) => {
  const feed = input.feed;
  if (!feed) return;
  feed.send({ type: 'feed.watch', watcher: self });
  receive((event) => { if (event.type === 'orders.stale') sendBack(input.onStale); });
  return () => { if (feed.getSnapshot().status === 'active') feed.send({ type: 'feed.unwatch', watcher: self }); };
});
