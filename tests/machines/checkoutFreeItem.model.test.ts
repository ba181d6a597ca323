// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { and, eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import { checkoutMachine, orderRequestOf, selectFreeItem, type PlacedOrder } from '../../machines/checkout';
import { customerWallets, orderItems, orders } from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { postToLedger } from '../../server/loyalty/ledger';
import { FREE_ITEM_TEXT } from '../../server/loyalty/freeItems';

/**
 * The free item at checkout, model-based against the real server: the checkout machine runs with
 * its ports bound to the real REST calls (the balance and the branch's purchases collection are
 * read from the server, the order is placed there). Each path starts with a customer holding one
 * free item and a cart of two espressos (qualifying) and a cookie (not); the events are the
 * customer's choices and a second order that spends the free item first. Every state checks the
 * machine's view and what the server holds.
 */
const modelMachine = createMachine({
  id: 'freeItemModel',
  initial: 'noneChosen',
  states: {
    noneChosen: { on: { CHOOSE_ESPRESSO: 'espressoChosen', CHOOSE_COOKIE: 'cookieRefused', PLACE: 'placedPaid' } },
    cookieRefused: { on: { CHOOSE_ESPRESSO: 'espressoChosen' } },
    espressoChosen: { on: { CHOOSE_NONE: 'noneChosen', PLACE: 'placedFree', SPENT_ELSEWHERE: 'spentElsewhere' } },
    spentElsewhere: { on: { PLACE: 'refused' } },
    refused: {},
    placedFree: {},
    placedPaid: {},
  },
});

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

let actor: Actor<typeof boundCheckout>;
let ordersBefore = 0;
const redeemedUnits = () => orderRequestOf(actor.getSnapshot().context).products.filter((p) => p.redeemItem);

async function start() {
  await holdFreeItems(1);
  ordersBefore = await orderCount();
  actor = createActor(boundCheckout, {
    input: {
      isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1,
      lines: [{ productId: espresso, quantity: 2, optionIds: [] }, { productId: cookie, quantity: 1, optionIds: [] }],
    },
  }).start();
  await waitFor(actor, (s) => s.matches('editing'), { timeout: 30_000 });
}

async function lastOrderItems() {
  const [last] = await db().select({ id: orders.id }).from(orders).where(eq(orders.userId, CUSTOMER)).orderBy(orders.id).limit(1).offset(ordersBefore);
  return db().select().from(orderItems).where(eq(orderItems.orderId, last.id)).orderBy(orderItems.id);
}

const states = {
  noneChosen: async () => {
    expect(selectFreeItem(actor.getSnapshot())).toEqual({ balance: 1, lines: [0], chosen: null });
    expect(redeemedUnits()).toEqual([]);
  },
  cookieRefused: async () => {
    expect(selectFreeItem(actor.getSnapshot())).toEqual({ balance: 1, lines: [0], chosen: null });
    expect(redeemedUnits()).toEqual([]);
  },
  espressoChosen: async () => {
    expect(selectFreeItem(actor.getSnapshot()).chosen).toBe(0);
    // One espresso of the two is free, on its own line; the other is paid.
    expect(orderRequestOf(actor.getSnapshot().context).products.map((p) => [p.productId, p.quantity, p.redeemItem]))
      .toEqual([[espresso, 1, true], [espresso, 1, false], [cookie, 1, false]]);
  },
  spentElsewhere: async () => {
    expect(await freeItems()).toBe(0);
  },
  refused: async () => {
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(FREE_ITEM_TEXT.none);
    expect(await orderCount()).toBe(ordersBefore + 1); // only the other order
    expect(await freeItems()).toBe(0);
  },
  placedFree: async () => {
    expect(actor.getSnapshot().matches('placed')).toBe(true);
    expect(await freeItems()).toBe(0);
    const items = await lastOrderItems();
    expect(items.map((i) => [i.productId, i.quantity, i.isRedeem, Number(i.unitPrice) === 0])).toEqual([[espresso, 1, true, true], [espresso, 1, false, false], [cookie, 1, false, false]]);
  },
  placedPaid: async () => {
    expect(actor.getSnapshot().matches('placed')).toBe(true);
    expect(await freeItems()).toBe(1);
    expect((await lastOrderItems()).every((i) => !i.isRedeem && Number(i.unitPrice) > 0)).toBe(true);
  },
};

const events = {
  CHOOSE_ESPRESSO: async () => { actor.send({ type: 'checkout.freeItem', line: 0 }); },
  // The cookie does not qualify: the machine refuses the choice.
  CHOOSE_COOKIE: async () => {
    const before = actor.getSnapshot().context.freeItemLine;
    expect(actor.getSnapshot().can({ type: 'checkout.freeItem', line: 1 })).toBe(false);
    actor.send({ type: 'checkout.freeItem', line: 1 });
    expect(actor.getSnapshot().context.freeItemLine).toBe(before);
  },
  CHOOSE_NONE: async () => { actor.send({ type: 'checkout.freeItem', line: null }); },
  // Another device spends the free item first (an order of its own).
  SPENT_ELSEWHERE: async () => {
    const res = await saveOrder({
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: espresso, quantity: 1, redeemItem: true }],
    }, `model-elsewhere-${++keys}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  },
  PLACE: async () => {
    actor.send({ type: 'checkout.submit' });
    await waitFor(actor, (s) => !s.hasTag('pending'), { timeout: 30_000 });
  },
};

describe('free item at checkout (model-based, real server)', () => {
  const model = createTestModel(modelMachine);
  for (const path of model.getSimplePaths()) {
    it(path.description, async () => {
      await start();
      await path.test({ states, events });
      actor.stop();
    }, 60_000);
  }

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
