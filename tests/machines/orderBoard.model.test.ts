import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, waitFor, type SnapshotFrom } from 'xstate';
import { atomicStateIds, describeModel, type ModelPath } from '../support/describeModel';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { placeGuestOrder } from '../support/guestOrders';
import { sendOrderEvent } from '../support/orders';
import { createApolloClient } from '../../src/lib/apollo';
import { onNotice, type Notice } from '../../src/lib/notify';
import { provideOrderBoard } from '../../src/console/orders/provideBoard';
import { ORDER_ACTIONS } from '../../src/console/orders/format';
import { columnsOf, orderLifecycleMachine, type OrderLifecycleEvent, type OrderEventType } from '../../machines/orderLifecycle';
import { canSendOrderEvent } from '../../domain/permissions';

/**
 * The order board's row actions against a real server, generated from the real order lifecycle
 * machine (machines/orderLifecycle.ts), whose actors the board (machines/orderBoard.ts) keeps one
 * per row: the board bound to the gateway exactly as the console binds it, one pick-up cash order
 * per path, acted on by a brand manager (who may also approve refunds). The model's events are the
 * row buttons a brand manager has; each state checks the row the board shows, the buttons its
 * order's lifecycle actor offers (the model's state must allow the same ones), the board's actor
 * for that row against the model's state, and that the server holds the same.
 */
const ROW_EVENTS = new Set(ORDER_ACTIONS.map((a) => a.event).filter((e) => canSendOrderEvent('BRAND_MANAGER', e) && e !== 'order.markRead'));
type LifecycleSnap = SnapshotFrom<typeof orderLifecycleMachine>;
/** The lifecycle without its read region: acting from a row marks the order read (issue 11), which the model leaves to 'opening an order'. */
const withoutRead = (value: unknown) => { const { read: _read, ...rest } = value as Record<string, string>; return rest; };
const buttonsOf = (snapshot: { can(e: OrderLifecycleEvent): boolean }) =>
  ORDER_ACTIONS.filter((a) => canSendOrderEvent('BRAND_MANAGER', a.event) && snapshot.can({ type: a.event } as OrderLifecycleEvent)).map((a) => a.event).sort();

let server: ServerProcess;
let managerToken: string;
let branchToken: string;
let guestToken: string;
const notices: Notice[] = [];
beforeAll(async () => {
  server = await startServerProcess();
  [managerToken, branchToken, guestToken] = await Promise.all([server.api.login('brandmanager'), server.api.login('branchuser'), server.api.guestToken()]);
  localStorage.setItem('token', managerToken);
  onNotice((n) => notices.push(n));
  // The gateway's and the board's first page is set-up, not a step: on a loaded machine it took more than
  // the 10 s a step may take, and failed whichever path came first (the approved refund of a closed order, once it was walked).
  const orderId = await placeGuestOrder(server.api, { token: guestToken });
  const board = startBoard(orderId);
  await waitFor(board, (s) => s.matches({ list: 'success' }) && !!s.context.rows[orderId], { timeout: 90_000 });
  board.stop();
});
afterAll(async () => { await server?.close(); });

/** While true, every request fails as it does when the server is down (the browser's fetch rejects). */
let serverDown = false;
const reachableFetch: typeof fetch = (input, init) => (serverDown ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init));

function startBoard(orderId: number) {
  const client = createApolloClient({ uri: `${server.url}/graphql`, onUnauthorized: () => { throw new Error('unexpected 401'); }, fetch: reachableFetch });
  const board = createActor(provideOrderBoard(client), { input: { list: 'all', filter: { search: `#${orderId}` } } });
  board.start();
  return board;
}
type Board = ReturnType<typeof startBoard>;

const settled = (board: Board, orderId: number) =>
  waitFor(board, (s) => !(orderId in s.context.acting) && s.matches({ list: 'success' }) && !!s.context.rows[orderId], { timeout: 10_000 });

async function serverRow(orderId: number) {
  const res = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: managerToken, query: { SkipCount: 0, MaxResultCount: 1, Search: `#${orderId}` } });
  return res.body.result.data[0];
}

interface Walk { orderId: number; board: Board }
const act = async (w: Walk, event: OrderLifecycleEvent, details?: { reason: string }) => {
  w.board.send({ type: 'order.act', orderId: w.orderId, event, details });
  expect(w.board.getSnapshot().context.acting[w.orderId]).toBe(event.type);
  await settled(w.board, w.orderId);
};

describeModel('order board row actions (model-based on the real lifecycle machine, real board, real server)', {
  machine: orderLifecycleMachine,
  input: { deliverySystem: 'pickup' },
  // Reject and no-show carry the operator's reason, as the dialog sends them.
  events: [{ type: 'order.reject', reason: 'Item sold out' }, { type: 'order.noShow', reason: 'Item sold out' }],
  filterEvents: (_: LifecycleSnap, e: { type: string }) => ROW_EVENTS.has(e.type as OrderEventType),
  serialize: (s: LifecycleSnap) => withoutRead(s.value),
  // A pick-up order has no car to arrive or be served; reading is 'opening an order' below. A placed
  // order never becomes scheduled: an order for later starts there (walked in orderLifecycle.model.test.ts).
  mustVisit: atomicStateIds(orderLifecycleMachine).filter((id) => !['orderLifecycle.arrival.arrived', 'orderLifecycle.arrival.served', 'orderLifecycle.read.read', 'orderLifecycle.status.scheduled'].includes(id)),
  start: async (): Promise<Walk> => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    await settled(board, orderId);
    return { orderId, board };
  },
  stop: (w: Walk) => w.board.stop(),
  steps: Object.fromEntries([...ROW_EVENTS].map((type) => [type, (w: Walk, step: { event: OrderLifecycleEvent }) =>
    act(w, step.event, type === 'order.requestRefund' ? { reason: 'Wrong drink' } : undefined)])),
  states: {
    '*': async (w: Walk, model: LifecycleSnap) => {
      const s = w.board.getSnapshot();
      const row = s.context.rows[w.orderId];
      const { isViewed: _viewed, ...columns } = columnsOf(model);
      expect(row).toMatchObject(columns);
      // The row's own lifecycle actor is where the model is, and offers the buttons the model allows.
      const child = s.context.orders[w.orderId].getSnapshot();
      expect(withoutRead(child.value)).toEqual(withoutRead(model.value));
      expect(buttonsOf(child)).toEqual(buttonsOf(model));
      // The server holds what the board shows.
      const held = await serverRow(w.orderId);
      expect({ status: held.status, version: held.version }).toEqual({ status: row.status, version: row.version });
      // The reason the dialog asked for is kept on the order (the customer reads it).
      if (model.matches({ status: 'rejected' }) && model.matches({ refund: 'none' }) || model.matches({ arrival: 'noShow' })) expect(held.statusReason).toBe('Item sold out');
    },
  },
  minPaths: 8,
  broken: [{
    // Issue 11's rule broken in the model: an approved refund leaves the open order open; the server rejects it.
    name: 'a lifecycle machine that lets a brand manager approve a refund without rejecting the order',
    spec: { machine: orderLifecycleMachine.provide({ guards: { isRefundRequested: () => false } }) },
    pick: (p: ModelPath) => p.steps.some((st) => st.event.type === 'order.approveRefund'),
    failsWith: /expected/,
  }],
} as never);

describe('order board: beyond the lifecycle', () => {
  // Another console accepted the order; this board has not refetched and still offers pending's buttons.
  it('a row changed in another console is refused, said plainly, and refetched', async () => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    try {
      await settled(board, orderId);
      expect((await sendOrderEvent(server.api, 'order.accept', orderId, branchToken)).status).toBe(200);
      expect(board.getSnapshot().context.rows[orderId].status).toBe('pending');
      board.send({ type: 'order.act', orderId, event: { type: 'order.reject', reason: 'Item sold out' } });
      await settled(board, orderId);
      await waitFor(board, (s) => s.context.rows[orderId].status === 'accepted', { timeout: 10_000 });
      expect(notices.at(-1)).toMatchObject({ intent: 'danger', title: 'Error' });
      expect(notices.at(-1)!.message).toBe(`Order #${orderId} was changed by someone else meanwhile. Reload it and try again.`);
      const held = await serverRow(orderId);
      expect(held.status).toBe('accepted');
      expect(buttonsOf(board.getSnapshot().context.orders[orderId].getSnapshot())).toEqual(['order.close', 'order.markPaid', 'order.noShow', 'order.ready']);
    } finally {
      board.stop();
    }
  });

  it('opening an order marks it read, once', async () => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    try {
      await settled(board, orderId);
      expect(board.getSnapshot().context.rows[orderId].isViewed).toBe(false);
      board.send({ type: 'order.open', orderId });
      expect(board.getSnapshot().context.acting[orderId]).toBe('order.markRead');
      await waitFor(board, (s) => s.context.rows[orderId].isViewed, { timeout: 10_000 });
      expect((await serverRow(orderId)).isViewed).toBe(true);
      board.send({ type: 'order.closeDetails' });
      board.send({ type: 'order.open', orderId });
      // Already read: the machine does not send it again.
      expect(board.getSnapshot().context.acting[orderId]).toBeUndefined();
    } finally {
      board.stop();
    }
  });

  // Issue 11: accepting or closing from the row left the unread dot; only opening the drawer cleared it.
  it.each([['order.accept'], ['order.reject']] as const)('acting from the row (%s) marks the order read', async (event) => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    try {
      await settled(board, orderId);
      expect(board.getSnapshot().context.rows[orderId].isViewed).toBe(false);
      board.send({ type: 'order.act', orderId, event: event === 'order.reject' ? { type: event, reason: 'Item sold out' } : { type: event } });
      await waitFor(board, (s) => s.context.rows[orderId]?.isViewed && !(orderId in s.context.acting), { timeout: 10_000 });
      expect(await serverRow(orderId)).toMatchObject({ isViewed: true, status: event === 'order.accept' ? 'accepted' : 'rejected' });
    } finally {
      board.stop();
    }
  });

  // Issue 11: two identical 'Sorry!! Something went wrong(' toasts, and no word that the order was not accepted.
  it('acting while the server cannot be reached says once, plainly, that the order was not accepted', async () => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    try {
      await settled(board, orderId);
      const before = notices.length;
      serverDown = true;
      board.send({ type: 'order.act', orderId, event: { type: 'order.accept' } });
      await waitFor(board, (s) => !(orderId in s.context.acting) && !s.matches({ list: 'refreshing' }), { timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 300));
      const said = notices.slice(before);
      expect(said.map((n) => n.message)).toEqual([`Order #${orderId} was not accepted: the server could not be reached. Try again when the connection is back.`]);
      serverDown = false;
      expect((await serverRow(orderId)).status).toBe('pending');
      // The row keeps what the server holds, and its buttons.
      expect(board.getSnapshot().context.rows[orderId].status).toBe('pending');
    } finally {
      serverDown = false;
      board.stop();
    }
  });

  it('refuses in the machine what the order cannot do, without calling the server', async () => {
    const orderId = await placeGuestOrder(server.api, { token: guestToken });
    const board = startBoard(orderId);
    try {
      await settled(board, orderId);
      board.send({ type: 'order.act', orderId, event: { type: 'order.close' } });
      expect(board.getSnapshot().context.acting).toEqual({});
    } finally {
      board.stop();
    }
  });
});
