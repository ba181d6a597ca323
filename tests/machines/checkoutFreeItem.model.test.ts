// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import { describeModel, type ModelPath } from '../support/describeModel';
import { and, eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import { checkoutMachine, orderRequestOf, selectFreeItem, type PlacedOrder } from '../../machines/checkout';
import { customerWallets, orderItems, orders } from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { postToLedger } from '../../server/loyalty/ledger';
import { FREE_ITEM_TEXT } from '../../server/loyalty/freeItems';

/**
 * The free item at checkout, model-based against the real server, generated from the real
 * checkout machine (machines/checkout.ts): the checkout actor under test runs with its ports bound
 * to the real REST calls (the balance and the branch's purchases collection are read from the
 * server, the order is placed there). Each path starts with a customer holding one free item and a
 * cart of two espressos (qualifying) and a cookie (not); the model's events are the customer's
 * choices and Place order, and its answers the server's: placed, or refused because another
 * device spent the free item first (the step before makes that happen). Every state checks the
 * actor against the model and what the server holds.
 */
/** The model's products; the actor's are the seeded menu's. */
const MODEL_ESPRESSO = 1, MODEL_COOKIE = 2;
const PLACED = { isSuccessed: true, isPaid: false, message: '', paymentUrl: null, orderId: 1, ohash: null };
const REFUSED = { isSuccessed: false, isPaid: false, message: FREE_ITEM_TEXT.none, paymentUrl: null, orderId: null, ohash: null };

const API = '/api/services/app';
const CUSTOMER = 5;
let server: TestServer;
let customer: string;
let espresso: number, cookie: number;
let gift = 0;
const db = () => server.database.db as unknown as Db;

beforeAll(async () => {
  server = await startTestServer();
  const menu = await seededMenu(server);
  [espresso, cookie] = [menu.product('Espresso'), menu.product('Pistachio Cookie')];
  customer = await server.api.login('customer');
  const brandManager = await server.api.login('brandmanager');
  const program = await server.api.post(`${API}/RewardPrograms/CreatePurchasesCollection`, {
    token: brandManager, body: { branchId: 1, name: 'Coffee card', target: 5, productIds: [espresso] },
  });
  expect(program.status, JSON.stringify(program.body)).toBe(200);
}, 120_000);
afterAll(async () => { await server?.close(); });

async function freeItems() {
  const [w] = await db().select({ n: customerWallets.freeItems }).from(customerWallets)
    .where(and(eq(customerWallets.userId, CUSTOMER), eq(customerWallets.brandId, 7)));
  return w?.n ?? 0;
}
/** Sets the customer's free items to `n` through the ledger (the only way balances move). */
async function holdFreeItems(n: number) {
  const diff = n - await freeItems();
  if (diff) {
    await db().transaction((tx) => postToLedger(tx, {
      userId: CUSTOMER, brandId: 7, account: 'freeItems', amount: diff, reason: 'Model test', reference: { type: 'adjustment', id: null }, createdBy: null, key: `model-free-${++gift}`,
    }));
  }
}
const orderCount = async () => (await db().select({ id: orders.id }).from(orders).where(eq(orders.userId, CUSTOMER))).length;

let keys = 0;
const saveOrder = (body: unknown, key: string) => server.api.post(`${API}/Store/SaveNewOrderVS1`, { token: customer, headers: { 'idempotency-key': key }, body });

/** The checkout machine with its ports bound to the real server, as the shop binds them to the gateway. */
const boundCheckout = checkoutMachine.provide({
  actors: {
    loadOptions: fromPromise(async ({ input }) => {
      const [details, programs] = await Promise.all([
        server.api.get(`${API}/Customer/GetCurrentCustomerDetails`, { token: customer, query: { brandId: input.brandId } }),
        server.api.get(`${API}/RewardPrograms/GetBranchActualRewardProgramsByBranchIdForUser`, { query: { branchId: input.branchId } }),
      ]);
      const purchases = (programs.body.result as { kind: string; productIds: number[] }[]).find((p) => p.kind === 'purchases');
      return {
        paymentMethods: [{ paymentSystemId: 2, name: 'Cash', isCard: false }], addresses: [],
        freeItems: details.body.result.freeItems as number, freeItemProducts: purchases?.productIds ?? [],
      };
    }),
    placeOrder: fromPromise(async ({ input }): Promise<PlacedOrder> => {
      const res = await saveOrder(input.order, input.idempotencyKey);
      if (res.status === 200) return { ...res.body.result, paymentUrl: res.body.result.paymentUrl ?? null };
      if (res.status === 400) return { isSuccessed: false, isPaid: false, message: res.body.error?.message ?? '', paymentUrl: null, orderId: null, ohash: null };
      throw new Error(`SaveNewOrderVS1 answered ${res.status}`);
    }),
  },
});

type Model = SnapshotFrom<typeof checkoutMachine>;
type Step = { event: Record<string, unknown>; next?: { key: string; event: Record<string, unknown> } };
let ordersBefore = 0;
const realId = (id: number) => (id === MODEL_ESPRESSO ? espresso : id === MODEL_COOKIE ? cookie : id);
const unitsOf = (c: Model['context']) => orderRequestOf(c).products.map((p) => [realId(p.productId), p.quantity, p.redeemItem]);

async function start() {
  await holdFreeItems(1);
  ordersBefore = await orderCount();
  const actor = createActor(boundCheckout, {
    input: {
      isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1,
      lines: [{ productId: espresso, quantity: 2, optionIds: [] }, { productId: cookie, quantity: 1, optionIds: [] }],
    },
  }).start();
  await waitFor(actor, (s) => !s.hasTag('pending'), { timeout: 30_000 });
  return actor;
}
type Handle = Awaited<ReturnType<typeof start>>;

async function lastOrderItems() {
  const [last] = await db().select({ id: orders.id }).from(orders).where(eq(orders.userId, CUSTOMER)).orderBy(orders.id).limit(1).offset(ordersBefore);
  return db().select().from(orderItems).where(eq(orderItems.orderId, last.id)).orderBy(orderItems.id);
}

const freeItemModel = {
  machine: checkoutMachine,
  input: {
    isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1,
    lines: [{ productId: MODEL_ESPRESSO, quantity: 2, optionIds: [] }, { productId: MODEL_COOKIE, quantity: 1, optionIds: [] }],
  },
  events: [0, 1, null].map((line) => ({ type: 'checkout.freeItem', line })),
  answers: {
    loadOptions: { done: [{ paymentMethods: [{ paymentSystemId: 2, name: 'Cash', isCard: false }], addresses: [], freeItems: 1, freeItemProducts: [MODEL_ESPRESSO] }] },
    // The server refuses a free item only when one was chosen (and spent meanwhile).
    placeOrder: { done: (s: Model) => (s.context.freeItemLine !== null ? [PLACED, REFUSED] : [PLACED]) },
  },
  // The free item's journey: the other choices (mode, payment, guest details) are checkout.model.test.tsx's.
  filterEvents: (_: unknown, e: { type: string }) => ['checkout.freeItem', 'checkout.submit'].includes(e.type) || e.type.startsWith('xstate.'),
  serialize: (s: Model) => [s.value, s.context.freeItemLine, s.context.error],
  mustVisit: ['checkout.editing', 'checkout.submitting', 'checkout.placed'],
  start,
  stop: (actor: Handle) => actor.stop(),
  actual: (actor: Handle) => actor.getSnapshot(),
  steps: {
    'loadOptions.done': () => {},
    'checkout.freeItem': (actor: Handle, step: Step) => { actor.send(step.event as never); },
    'checkout.submit': async (actor: Handle, step: Step) => {
      if ((step.next?.event.output as typeof REFUSED | undefined)?.isSuccessed === false) {
        // Another device spends the free item first (an order of its own).
        const res = await saveOrder({
          brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: espresso, quantity: 1, redeemItem: true }],
        }, `model-elsewhere-${++keys}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      actor.send({ type: 'checkout.submit' });
    },
    'placeOrder.done': (actor: Handle) => waitFor(actor, (s) => !s.hasTag('pending'), { timeout: 30_000 }),
  },
  states: {
    editing: async (actor: Handle, model: Model) => {
      const s = actor.getSnapshot();
      expect(selectFreeItem(s)).toEqual(selectFreeItem(model));
      expect(selectFreeItem(s).lines).toEqual([0]);
      // One espresso of the two is free, on its own line; the other is paid.
      expect(unitsOf(s.context)).toEqual(unitsOf(model.context));
      expect(s.context.error).toBe(model.context.error);
      expect(await freeItems()).toBe(model.context.error ? 0 : 1);
      if (model.context.error) expect(await orderCount()).toBe(ordersBefore + 1); // only the other order
    },
    placed: async (_: Handle, model: Model) => {
      const chosen = model.context.freeItemLine !== null;
      expect(await freeItems()).toBe(chosen ? 0 : 1);
      const items = await lastOrderItems();
      expect(items.map((i) => [i.productId, i.quantity, i.isRedeem])).toEqual(unitsOf(model.context));
      expect(items.every((i) => (Number(i.unitPrice) === 0) === i.isRedeem)).toBe(true);
    },
  },
};

describeModel('free item at checkout (model-based on the real checkout machine, real server)', {
  ...freeItemModel,
  minPaths: 3,
  broken: [{
    // A machine that lets any line be taken free: the model takes the cookie, the real checkout refuses it.
    name: 'a checkout machine that lets a line that does not qualify be taken free',
    spec: { machine: checkoutMachine.provide({ guards: { canTakeFreeItem: () => true } }) },
    pick: (p: ModelPath) => p.steps.some((s) => s.event.type === 'checkout.freeItem' && s.event.line === 1),
    failsWith: /expected/,
  }],
} as never);

describe('free item at checkout: what the model does not walk', () => {
  it('the cookie does not qualify: the machine refuses the choice', async () => {
    const actor = await start();
    expect(actor.getSnapshot().can({ type: 'checkout.freeItem', line: 1 })).toBe(false);
    actor.send({ type: 'checkout.freeItem', line: 1 });
    expect(actor.getSnapshot().context.freeItemLine).toBeNull();
    actor.stop();
  });

  it('a guest is never offered a free item', async () => {
    const guest = createActor(boundCheckout, {
      input: { isAuthenticated: true, isGuest: true, brandId: 7, branchId: 1, lines: [{ productId: espresso, quantity: 1, optionIds: [] }] },
    }).start();
    await waitFor(guest, (s) => s.matches('editing'), { timeout: 30_000 });
    expect(selectFreeItem(guest.getSnapshot())).toEqual({ balance: 0, lines: [], chosen: null });
    expect(guest.getSnapshot().can({ type: 'checkout.freeItem', line: 0 })).toBe(false);
    guest.stop();
  });
});
