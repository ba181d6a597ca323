import { assign, enqueueActions, fromPromise, raise, setup, type ActorRefFrom } from 'xstate';
import { orderLifecycleMachine, orderSnapshotFrom, type OrderEventType, type OrderLifecycleEvent, type OrderLifecycleRow } from './orderLifecycle';
import { watchOrderFeed } from './liveOrderFeed';
import type {
  BoardOrder, OrderActionRequest, OrderActorRef, OrderBoardContext, OrderBoardEvent, OrderBoardInput, PageRequest, PageResult,
} from './orderBoardTypes';
import { DEFAULT_PAGE_SIZE } from './orderBoardTypes';
import { clean, lastPageSkip, messageOf, movedSelection, pageRequest, sameBesidesStatus } from './orderBoardPage';

// The board's vocabulary, rules and timer live beside it; its users import them from here.
export * from './orderBoardTypes';
export { movedSelection } from './orderBoardPage';
export * from './orderBoardTimer';

/**
 * One page of a staff order list (SPEC.md 4 "Orders"): paging, sorting and filters, the page's
 * rows and the counts, done on the server. Each row gets a child actor, the same orderLifecycle
 * machine the server runs, restored from the row's columns; the view shows an action when
 * `child.getSnapshot().can(event)`. The server's answer is authoritative: every action is sent,
 * and a refusal (409) or any failure is reported and the page refetched.
 *
 *   list:  loading ─▶ success ──board.refresh──▶ refreshing ─▶ success      (error on failure)
 *          any ──board.page / board.sort / board.filter──▶ loading
 *   rows:  order.act ─(child can)─▶ spawn performOrderEvent "act-<id>" ─▶ row replaced, refetch
 *          order.open ─▶ details open; marks the order read when its machine can
 *   feed:  given the live order feed's ref (input `feed`), the board watches it (`watchOrderFeed`):
 *          the feed's `orders.stale` comes back as board.refresh
 *
 * Ports, bound by whoever runs the machine: actors `loadPage` and `performOrderEvent`;
 * action `reportActionFailed` (shows the server's message).
 */

/**
 * orderLifecycle started in the state an order row's columns stand for. Spawned actors cannot be
 * handed a snapshot, so this is the machine itself with only its initial snapshot replaced.
 */
export const orderFromRow = Object.create(orderLifecycleMachine, {
  getInitialSnapshot: { value: (_scope: unknown, row: OrderLifecycleRow) => orderSnapshotFrom(row) },
}) as typeof orderLifecycleMachine;

const ACTOR_PREFIX = 'act-';
const orderIdOfActor = (actorId: string) => Number(actorId.slice(ACTOR_PREFIX.length).split('-')[0]);

export const orderBoardMachine = setup({
  types: {
    context: {} as OrderBoardContext,
    events: {} as OrderBoardEvent,
    input: {} as OrderBoardInput,
    tags: {} as 'pending',
  },
  actors: {
    loadPage: fromPromise<PageResult, PageRequest>(async () => {
      throw new Error('loadPage is not bound');
    }),
    /** Answers the updated row, or null when the call does not (the board refetches anyway). */
    performOrderEvent: fromPromise<BoardOrder | null, OrderActionRequest>(async () => {
      throw new Error('performOrderEvent is not bound');
    }),
    orderLifecycle: orderFromRow,
    watchOrderFeed,
  },
  actions: {
    /** `event` is the action that was not done: the message says so (issue 11: it only said 'Something went wrong'). */
    reportActionFailed: (_, _params: { orderId: number; event: OrderEventType; error: unknown }) => {},
    /**
     * Takes rows from the server and keeps each row's actor in step: a row whose version did not
     * change keeps its actor; a changed or new row gets a fresh one; a row that left is stopped.
     * `page` replaces the whole page (and its order); otherwise the rows update in place. A row never
   * goes back to an older version than the one held.
     */
    syncRows: enqueueActions(({ context, enqueue }, params: { rows: BoardOrder[]; page: boolean }) => {
      const rows: Record<number, BoardOrder> = params.page ? {} : { ...context.rows };
      for (const row of params.rows) {
        if (!params.page && !(row.id in rows)) continue;
        // Versions only grow: a page read before an action answered may arrive after it, and must
        // not put the row back as it was (its actions would then go out with a stale version: 409).
        const held = context.rows[row.id];
        rows[row.id] = held && held.version > row.version ? held : row;
      }
      const kept: Record<number, OrderActorRef> = {};
      for (const [key, ref] of Object.entries(context.orders)) {
        const id = Number(key);
        if (rows[id] && rows[id].version === context.rows[id]?.version) kept[id] = ref;
        else enqueue.stopChild(ref);
      }
      enqueue.assign(({ spawn }) => {
        const orders = { ...kept };
        for (const row of Object.values(rows)) {
          orders[row.id] ??= spawn('orderLifecycle', { id: `order-${row.id}-v${row.version}`, input: row as never }) as OrderActorRef;
        }
        return { rows, orders, ...(params.page && { rowIds: params.rows.map((r) => r.id) }) };
      });
    }),
    applyCounts: assign(({ context }, output: PageResult) => ({
      totalCount: output.totalCount, counts: output.counts ?? context.counts, countsStale: context.countsStale && !output.counts, error: null,
    })),
    markCountsStale: assign({ countsStale: true }),
    backToLastPage: assign(({ context }, page: PageResult) => ({ skip: lastPageSkip(page.totalCount, context.take) })),
  },
  guards: {
    /** Done and error events of the per-row action actors (not of the page loads). */
    isOrderAction: ({ event }) => String((event as { actorId?: string }).actorId ?? '').startsWith(ACTOR_PREFIX),
    canAct: ({ context }, params: { orderId: number; event: OrderLifecycleEvent }) =>
      !(params.orderId in context.acting) && !!context.orders[params.orderId]?.getSnapshot().can(params.event),
    /** Offset past the end (the last rows of the last page left the list): step back a page. */
    isPastEnd: ({ context }, page: PageResult) => page.rows.length === 0 && context.skip > 0 && page.totalCount > 0,
  },
}).createMachine({
  id: 'orderBoard',
  type: 'parallel',
  invoke: { src: 'watchOrderFeed', input: ({ context }) => ({ onStale: { type: 'board.refresh' }, feed: context.feed }) },
  context: ({ input }) => ({
    list: input.list,
    feed: input.feed ?? null,
    skip: Math.max(0, input.skip ?? 0),
    take: input.take ?? DEFAULT_PAGE_SIZE,
    sorting: input.sorting ?? null,
    filter: input.filter ?? {},
    rowIds: [],
    rows: {},
    orders: {},
    totalCount: 0,
    counts: {},
    countsStale: true,
    acting: {},
    openOrderId: null,
    selectedId: null,
    error: null,
  }),
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['pending'],
          invoke: {
            src: 'loadPage',
            input: ({ context }) => pageRequest(context),
            onDone: [
              { guard: { type: 'isPastEnd', params: ({ event }) => event.output }, target: 'loading', reenter: true, actions: { type: 'backToLastPage', params: ({ event }) => event.output } },
              { target: 'success', actions: [{ type: 'applyCounts', params: ({ event }) => event.output }, { type: 'syncRows', params: ({ event }) => ({ rows: event.output.rows, page: true }) }] },
            ],
            onError: { target: 'error', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          },
          on: { 'board.refresh': { target: 'loading', reenter: true, actions: 'markCountsStale' } },
        },
        /** A refetch that keeps the rows on screen (live updates, after an action). */
        refreshing: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => pageRequest(context),
            onDone: [
              { guard: { type: 'isPastEnd', params: ({ event }) => event.output }, target: 'loading', actions: { type: 'backToLastPage', params: ({ event }) => event.output } },
              { target: 'success', actions: [{ type: 'applyCounts', params: ({ event }) => event.output }, { type: 'syncRows', params: ({ event }) => ({ rows: event.output.rows, page: true }) }] },
            ],
            // Keep what is on screen; the error link has told the user.
            onError: { target: 'success' },
          },
          on: { 'board.refresh': { target: 'refreshing', reenter: true, actions: 'markCountsStale' } },
        },
        success: { on: { 'board.refresh': { target: 'refreshing', actions: 'markCountsStale' } } },
        error: { on: { 'board.refresh': { target: 'loading', actions: 'markCountsStale' } } },
      },
      on: {
        'board.page': { target: '.loading', actions: assign({ skip: ({ event }) => Math.max(0, event.skip) }) },
        'board.pageSize': { target: '.loading', actions: assign({ take: ({ event }) => event.take, skip: 0 }) },
        'board.sort': { target: '.loading', actions: assign({ sorting: ({ event }) => event.sorting, skip: 0 }) },
        'board.filter': {
          target: '.loading',
          actions: assign(({ context, event }) => {
            const filter = clean(event.filter);
            // The status counts are of every status: picking one changes the rows, not the counts.
            return { filter, skip: 0, countsStale: context.countsStale || !sameBesidesStatus(context.filter, filter) };
          }),
        },
      },
    },
    details: {
      initial: 'closed',
      states: {
        closed: {},
        open: {
          on: { 'order.closeDetails': { target: 'closed', actions: assign({ openOrderId: null }) } },
        },
      },
      on: {
        'order.open': {
          target: '.open',
          actions: [
            assign({ openOrderId: ({ event }) => event.orderId }),
            // Opening an order marks it read (UpdateOrderAsRead); the guard of order.act skips a read one.
            raise(({ event }) => ({ type: 'order.act' as const, orderId: event.orderId, event: { type: 'order.markRead' as const } })),
          ],
        },
      },
    },
  },
  on: {
    'board.select': { actions: assign({ selectedId: ({ event }) => event.orderId }) },
    // From no selection (or one that left the page), J starts at the top and K at the bottom.
    'board.move': { actions: assign({ selectedId: ({ context, event }) => movedSelection(context.rowIds, context.selectedId, event.by) }) },
    'order.act': {
      guard: { type: 'canAct', params: ({ event }) => ({ orderId: event.orderId, event: event.event }) },
      actions: [
        assign({ acting: ({ context, event }) => ({ ...context.acting, [event.orderId]: event.event.type }) }),
        enqueueActions(({ context, event, enqueue }) => {
          // One id per action (order, version, event): an action sent as soon as the previous one
          // is done (a click right after the read mark) must not meet that one's id, still registered.
          enqueue.spawnChild('performOrderEvent', {
            id: `${ACTOR_PREFIX}${event.orderId}-v${context.rows[event.orderId].version}-${event.event.type}`,
            input: { orderId: event.orderId, version: context.rows[event.orderId].version, event: event.event, details: event.details },
          });
        }),
      ],
    },
    'xstate.done.actor.*': {
      guard: 'isOrderAction',
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { output, actorId } = event as unknown as { output: BoardOrder | null; actorId: string };
        const orderId = orderIdOfActor(actorId);
        const { [orderId]: done, ...acting } = context.acting;
        enqueue.assign({ acting });
        if (output) enqueue({ type: 'syncRows', params: { rows: [output], page: false } });
        // Acting on an order from its row means someone has seen it, as opening it does (issue 11:
        // the unread dot stayed after Accept or Close). The read mark is its own call, as on opening.
        if (done !== 'order.markRead' && output && !output.isViewed) {
          const readMark: OrderBoardEvent = { type: 'order.act', orderId, event: { type: 'order.markRead' } };
          enqueue.raise(readMark);
        }
        // A read mark changes nothing the list shows; anything else may move the row or the counts.
        if (done !== 'order.markRead' || !output) enqueue.raise({ type: 'board.refresh' });
      }),
    },
    'xstate.error.actor.*': {
      guard: 'isOrderAction',
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { error, actorId } = event as unknown as { error: unknown; actorId: string };
        const orderId = orderIdOfActor(actorId);
        const { [orderId]: failed, ...acting } = context.acting;
        enqueue.assign({ acting });
        if (failed && failed !== 'order.markRead') enqueue({ type: 'reportActionFailed', params: { orderId, event: failed, error } });
        // The server decided otherwise (409) or failed: show what it holds now.
        enqueue.raise({ type: 'board.refresh' });
      }),
    },
  },
});

// ── selectors (views read these, never the context shape) ──
type BoardSnapshot = ReturnType<ActorRefFrom<typeof orderBoardMachine>['getSnapshot']>;
export const selectIsLoading = (s: BoardSnapshot) => s.hasTag('pending');
export const selectIsRefreshing = (s: BoardSnapshot) => s.matches({ list: 'refreshing' });
export const selectError = (s: BoardSnapshot) => (s.matches({ list: 'error' }) ? s.context.error : null);
export const selectRowIds = (s: BoardSnapshot) => s.context.rowIds;
export const selectRows = (s: BoardSnapshot) => s.context.rows;
export const selectOrders = (s: BoardSnapshot) => s.context.orders;
export const selectActing = (s: BoardSnapshot) => s.context.acting;
export const selectCounts = (s: BoardSnapshot) => s.context.counts;
export const selectPaging = (s: BoardSnapshot) => ({ skip: s.context.skip, take: s.context.take, totalCount: s.context.totalCount });
export const selectSorting = (s: BoardSnapshot) => s.context.sorting;
export const selectFilter = (s: BoardSnapshot) => s.context.filter;
/** The selected row, if it is still on the page. */
export const selectSelectedId = (s: BoardSnapshot) => (s.context.selectedId != null && s.context.rowIds.includes(s.context.selectedId) ? s.context.selectedId : null);
export const selectOpenOrder = (s: BoardSnapshot) => (s.context.openOrderId == null ? null : s.context.rows[s.context.openOrderId] ?? null);
