// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeModel, modelPaths, type ModelPath } from '../support/describeModel';
import { startTestServer, type TestServer } from '../support/server';
import { EVENT_ACTOR, insertOrder, reachableOrderStates, readOrder, sendOrderEvent, STAFF_EVENT_TYPES } from '../support/orders';
import { createMachine } from 'xstate';
import { sql, eq } from 'drizzle-orm';
import { orders } from '../../server/db/schema';
import { fireDueOrders } from '../../server/orders/fire';
import {
  columnsOf, orderLifecycleMachine, type DeliverySystem, type OrderEventType, type OrderLifecycleSnapshot,
} from '../../machines/orderLifecycle';

/**
 * Model-based test of the order lifecycle against the real server, through the shared runner
 * (tests/support/describeModel.ts): for every delivery system, each shortest path to each state of
 * the real machine is replayed on a fresh order through the real REST calls (`steps`), and after
 * each step the order, read from the database and over the API, must be in exactly the machine's
 * state (`states`). Broken servers (an allowed event refused, a serve that does not close) fail it.
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
type Walk = { orderId: number };

/** The REST call of each event, on the order under test; the machine allows it here, so the server must too. */
function stepsFor(send = sendOrderEvent, fire = fireNow) {
  const steps = {} as Record<OrderEventType, (w: Walk, step: Step) => Promise<void>>;
  for (const type of STAFF_EVENT_TYPES) {
    steps[type] = async (w) => {
      const res = await send(server.api, type, w.orderId, tokens[EVENT_ACTOR[type]]);
      expect(res.status, `${type}: ${JSON.stringify(res.body.error)}`).toBe(200);
    };
  }
  steps['order.fire'] = fire;
  return steps;
}

/** `order.fire` has no REST call: the order's fire time is brought to now and the server's job runner fires it. */
async function fireNow(w: Walk) {
  await server.database.db.update(orders).set({ scheduledFor: sql`now()` }).where(eq(orders.id, w.orderId));
  expect(await fireDueOrders({ db: server.database.db, events: server.events })).toContain(w.orderId);
}
/** A broken runner: it finds the due order but never fires it. */
const notFiring = async (w: Walk) => {
  await server.database.db.update(orders).set({ scheduledFor: sql`now()` }).where(eq(orders.id, w.orderId));
};

/** The order as stored and as listed must match the machine's state. */
const states = {
  '*': async (w: Walk, snapshot: OrderLifecycleSnapshot) => {
    const expected = columnsOf(snapshot);
    const row = await readOrder(server, w.orderId);
    expect({ status: row.status, arrival: row.arrival, payment: row.payment, refund: row.refund, isViewed: row.isViewed }).toEqual(expected);
    const listed = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: tokens.admin, query: { Search: `#${w.orderId}` } });
    expect(listed.body.result.data[0]).toMatchObject({ id: w.orderId, ...expected });
  },
};

/** "Broken" servers: CustomerServed only records the arrival, through a write the machine never makes; or an allowed event is refused. */
const notClosingServe: typeof sendOrderEvent = async (api, type, id, token) => {
  if (type !== 'order.serve') return sendOrderEvent(api, type, id, token);
  const { orders } = await import('../../server/db/schema');
  const { eq } = await import('drizzle-orm');
  await server.database.db.update(orders).set({ arrival: 'served' }).where(eq(orders.id, id));
  return { status: 200, body: { result: null, error: null } };
};
const refusing = (refused: OrderEventType): typeof sendOrderEvent => async (api, type, id, token) =>
  (type === refused ? { status: 409, body: { error: { message: 'no' } } } : sendOrderEvent(api, type, id, token));

const SYSTEMS: DeliverySystem[] = ['pickup', 'carService', 'delivery'];
/** The state nodes an order of this kind can be in (a pick-up order never arrives by car; a delivery has no arrival at all). */
const reachableNodes = (deliverySystem: DeliverySystem, from: 'pending' | 'scheduled' = 'pending') => [...new Set(reachableOrderStates(deliverySystem, from).flatMap((c) => [
  `orderLifecycle.status.${c.status}`, `orderLifecycle.arrival.${c.arrival}`, `orderLifecycle.payment.${c.payment}`,
  `orderLifecycle.refund.${c.refund}`, `orderLifecycle.read.${c.isViewed ? 'read' : 'unread'}`,
]))];
const hasEvent = (type: OrderEventType) => (p: ModelPath) => p.steps.some((st) => st.event.type === type);

describe.each(SYSTEMS)('%s orders', (deliverySystem) => {
  const model = { machine: orderLifecycleMachine, input: { deliverySystem } };

  it('its paths visit every state an order can reach', () => {
    const key = (c: ReturnType<typeof columnsOf>) => JSON.stringify(c);
    const paths = modelPaths(model);
    const visited = new Set(paths.flatMap((p) => p.steps.map((s) => s.state as OrderLifecycleSnapshot)).map((s) => key(columnsOf(s))));
    const reachable = reachableOrderStates(deliverySystem).map(key);
    expect([...visited].sort()).toEqual([...reachable].sort());
    expect(reachable.length).toBeGreaterThan(deliverySystem === 'delivery' ? 10 : 30);
  });

  // One fresh order per path; each step is the event's REST call, each state the order as stored and listed.
  describeModel(`the real lifecycle machine, walked on the real server (${deliverySystem})`, {
    ...model,
    mustVisit: reachableNodes(deliverySystem),
    start: async (): Promise<Walk> => ({ orderId: (await insertOrder(server, { deliverySystem })).id }),
    steps: stepsFor() as never,
    states,
    broken: [
      { name: 'a server that refuses an allowed event', spec: { steps: stepsFor(refusing('order.accept')) as never }, pick: hasEvent('order.accept'), failsWith: /expected 409 to be 200/ },
      ...(deliverySystem === 'carService' ? [{
        name: 'a server that answers 200 but does not close a served order',
        spec: { steps: stepsFor(notClosingServe) as never },
        pick: hasEvent('order.serve'),
        failsWith: /expected/,
      }] : []),
    ],
  } as never);
});

/**
 * An order for later (issue 25) starts `scheduled`: the same machine, walked from that status (its
 * transitions are the real machine's; only the status region's starting state differs, as an order
 * placed with its fire time ahead is inserted). Pick-up only: from pending on, the walks above cover
 * every delivery system.
 */
const config = orderLifecycleMachine.config as { states: Record<string, object> };
const scheduledLifecycle = createMachine(
  { ...config, states: { ...config.states, status: { ...config.states.status, initial: 'scheduled' } } } as never,
  orderLifecycleMachine.implementations as never,
);
describe('orders for later', () => {
  it('the machine holds the new step: scheduled is fired to pending by the system only, and may be rejected before', () => {
    expect(reachableOrderStates('pickup', 'scheduled').some((c) => c.status === 'scheduled')).toBe(true);
    expect(reachableOrderStates('pickup').some((c) => c.status === 'scheduled')).toBe(false);
  });

  describeModel('the real lifecycle machine from scheduled, walked on the real server (pickup)', {
    machine: scheduledLifecycle,
    input: { deliverySystem: 'pickup' },
    mustVisit: ['orderLifecycle.status.scheduled', 'orderLifecycle.status.pending', 'orderLifecycle.status.rejected', 'orderLifecycle.status.accepted'],
    start: async (): Promise<Walk> => ({ orderId: (await insertOrder(server, { deliverySystem: 'pickup', status: 'scheduled', scheduledFor: new Date(Date.now() + 86_400_000) })).id }),
    steps: stepsFor() as never,
    states,
    broken: [
      { name: 'a runner that never fires a due order', spec: { steps: stepsFor(sendOrderEvent, notFiring) as never }, pick: hasEvent('order.fire'), failsWith: /expected/ },
    ],
  } as never);
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
