// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { startTestServer, type TestServer } from '../support/server';
import { EVENT_ACTOR, insertOrder, reachableOrderStates, readOrder, sendOrderEvent } from '../support/orders';
import {
  columnsOf, orderLifecycleMachine, type DeliverySystem, type OrderEventType, type OrderLifecycleSnapshot,
} from '../../machines/orderLifecycle';

/**
 * Model-based test of the order lifecycle against the real server: for every delivery system,
 * each shortest path to each state of the machine is replayed on a fresh order through the
 * real REST calls (`events`), and after each step the order, read from the database and over the
 * API, must be in exactly the machine's state (`states`).
 */
let server: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  server = await startTestServer();
  for (const who of new Set(Object.values(EVENT_ACTOR))) tokens[who] = await server.api.login(who);
  tokens.admin = await server.api.login('admin');
});
afterAll(async () => { await server?.close(); });

type Step = { event: { type: OrderEventType } };

/** The REST call of each event, on the order under test; the machine allows it here, so the server must too. */
function eventsFor(orderId: () => number, send = sendOrderEvent) {
  const events = {} as Record<OrderEventType, (step: Step) => Promise<void>>;
  for (const type of Object.keys(EVENT_ACTOR) as OrderEventType[]) {
    events[type] = async () => {
      const res = await send(server.api, type, orderId(), tokens[EVENT_ACTOR[type]]);
      expect(res.status, `${type}: ${JSON.stringify(res.body.error)}`).toBe(200);
    };
  }
  return events;
}

/** The order as stored and as listed must match the machine's state. */
function statesFor(orderId: () => number) {
  return {
    '*': async (snapshot: OrderLifecycleSnapshot) => {
      const expected = columnsOf(snapshot);
      const row = await readOrder(server, orderId());
      expect({ status: row.status, arrival: row.arrival, payment: row.payment, refund: row.refund, isViewed: row.isViewed }).toEqual(expected);
      const listed = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: tokens.admin, query: { Search: `#${orderId()}` } });
      expect(listed.body.result.data[0]).toMatchObject({ id: orderId(), ...expected });
    },
  };
}

const SYSTEMS: DeliverySystem[] = ['pickup', 'carService', 'delivery'];

describe.each(SYSTEMS)('%s orders', (deliverySystem) => {
  // States only (not state + incoming transition): one path per reachable state.
  const model = createTestModel(orderLifecycleMachine, { input: { deliverySystem }, serializeTransition: () => '' } as never);
  const paths = model.getShortestPaths();

  it('its paths visit every state an order can reach', () => {
    const key = (c: ReturnType<typeof columnsOf>) => JSON.stringify(c);
    const visited = new Set(paths.flatMap((p) => [p.state, ...p.steps.map((s) => s.state)]).map((s) => key(columnsOf(s))));
    const reachable = reachableOrderStates(deliverySystem).map(key);
    expect([...visited].sort()).toEqual([...reachable].sort());
    expect(reachable.length).toBeGreaterThan(deliverySystem === 'delivery' ? 10 : 30);
  });

  for (const path of paths) {
    it(path.description, async () => {
      let orderId = 0;
      orderId = (await insertOrder(server, { deliverySystem })).id;
      await path.test({ states: statesFor(() => orderId), events: eventsFor(() => orderId) });
    });
  }
});

describe('the model catches a broken server', () => {
  const model = createTestModel(orderLifecycleMachine, { input: { deliverySystem: 'carService' }, serializeTransition: () => '' } as never);
  const servedPath = model.getShortestPaths().find((p) => p.steps.some((s) => s.event.type === 'order.serve'))!;

  it('a server that answers 200 but does not close a served order fails the path', async () => {
    const orderId = (await insertOrder(server, { deliverySystem: 'carService' })).id;
    // "Broken" server: CustomerServed only records the arrival, through a write the machine never makes.
    const broken: typeof sendOrderEvent = async (api, type, id, token) => {
      if (type !== 'order.serve') return sendOrderEvent(api, type, id, token);
      const { orders } = await import('../../server/db/schema');
      const { eq } = await import('drizzle-orm');
      await server.database.db.update(orders).set({ arrival: 'served' }).where(eq(orders.id, id));
      return { status: 200, body: { result: null, error: null } };
    };
    await expect(servedPath.test({ states: statesFor(() => orderId), events: eventsFor(() => orderId, broken) })).rejects.toThrow();
  });

  it('a server that refuses an allowed event fails the path', async () => {
    const orderId = (await insertOrder(server, { deliverySystem: 'carService' })).id;
    const refusing: typeof sendOrderEvent = async (api, type, id, token) =>
      type === 'order.serve' ? { status: 409, body: { error: { message: 'no' } } } : sendOrderEvent(api, type, id, token);
    await expect(servedPath.test({ states: statesFor(() => orderId), events: eventsFor(() => orderId, refusing) })).rejects.toThrow();
  });
});

describe('the refund rule', () => {
  // Issue 11: a brand manager approved the refund of a pending order, and the branch user could still accept it.
  it.each(['pending', 'accepted'] as const)('an approved refund of a %s order rejects it, and the server then refuses to accept or close it', async (status) => {
    const order = await insertOrder(server, { deliverySystem: 'pickup', status, payment: 'paid' });
    expect((await sendOrderEvent(server.api, 'order.requestRefund', order.id, tokens.branchuser)).status).toBe(200);
    const approved = await sendOrderEvent(server.api, 'order.approveRefund', order.id, tokens.brandmanager);
    expect(approved.status, JSON.stringify(approved.body.error)).toBe(200);
    expect(await readOrder(server, order.id)).toMatchObject({ status: 'rejected', refund: 'approved' });
    for (const type of ['order.accept', 'order.close'] as const) {
      const res = await sendOrderEvent(server.api, type, order.id, tokens.branchuser);
      expect(res.status, `${type} after the refund`).toBe(409);
      expect(res.body.error!.message).toContain('it is rejected');
    }
    expect(await readOrder(server, order.id)).toMatchObject({ status: 'rejected', refund: 'approved' });
  });

  it('an approved refund of a closed order keeps it closed', async () => {
    const order = await insertOrder(server, { deliverySystem: 'pickup', status: 'closed', payment: 'paid' });
    expect((await sendOrderEvent(server.api, 'order.requestRefund', order.id, tokens.branchuser)).status).toBe(200);
    expect((await sendOrderEvent(server.api, 'order.approveRefund', order.id, tokens.brandmanager)).status).toBe(200);
    expect(await readOrder(server, order.id)).toMatchObject({ status: 'closed', refund: 'approved' });
  });
});
