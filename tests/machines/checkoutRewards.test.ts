// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { checkoutMachine, orderRequestOf, selectCanSubmit, selectRewards, type CheckoutOptions, type PlacedOrder } from '../../machines/checkout';
import { canSpendPoints, orderProductsOf } from '../../machines/checkoutRewards';

/**
 * Issue 24: points on a cart line, within the balance the checkout read; a line paid one way; a
 * sold-out line holds Place order until it is removed. The machine runs with stub ports: what
 * the server does with the request is tested in tests/server/shop-checkout-rewards.test.ts.
 */
const ESPRESSO = 1, CAPPUCCINO = 2, COOKIE = 3;
const lines = [
  { productId: ESPRESSO, quantity: 1, optionIds: [] },
  { productId: CAPPUCCINO, quantity: 1, optionIds: [7] },
  { productId: COOKIE, quantity: 1, optionIds: [] },
];
const payment = [{ paymentSystemId: 2, name: 'Cash at branch', isCard: false }];
const rewards = { points: 120, redeemPoints: { [ESPRESSO]: 100, [CAPPUCCINO]: 150 }, freeItems: 1, freeItemProducts: [ESPRESSO], lines };

async function editing(options: Partial<typeof rewards> = {}) {
  const actor = createActor(checkoutMachine.provide({
    actors: {
      loadOptions: fromPromise(async (): Promise<CheckoutOptions> => ({ paymentMethods: payment, addresses: [], ...rewards, ...options })),
    },
  }), { input: { isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1, lines } }).start();
  await waitFor(actor, (s) => s.matches('editing'));
  return actor;
}

describe('points at checkout', () => {
  it('a line is paid with points only while the balance covers it, and the request says isRedeem on that line alone', async () => {
    const actor = await editing();
    expect(selectRewards(actor.getSnapshot()).pointsLines.map((l) => [l.index, l.cost, l.allowed])).toEqual([[0, 100, true], [1, 150, false]]);
    actor.send({ type: 'checkout.points', line: 1, spend: true }); // 150 > 120: refused
    actor.send({ type: 'checkout.points', line: 0, spend: true });
    expect(selectRewards(actor.getSnapshot()).spent).toBe(100);
    expect(orderRequestOf(actor.getSnapshot().context).products.map((p) => p.isRedeem)).toEqual([true, false, false]);
    // The espresso is paid with points, so it cannot be the free item too.
    expect(actor.getSnapshot().can({ type: 'checkout.freeItem', line: 0 })).toBe(false);
    actor.send({ type: 'checkout.points', line: 0, spend: false });
    expect(selectRewards(actor.getSnapshot()).spent).toBe(0);
    expect(actor.getSnapshot().can({ type: 'checkout.freeItem', line: 0 })).toBe(true);
  });

  it('never more points than the balance, over several lines', () => {
    const c = { ...rewards, points: 199, redeemPoints: { [ESPRESSO]: 100, [COOKIE]: 100 }, pointsLines: [0], freeItemLine: null };
    expect(canSpendPoints(c, 2)).toBe(false);
    expect(canSpendPoints({ ...c, points: 200 }, 2)).toBe(true);
    expect(canSpendPoints({ ...c, points: 0, pointsLines: [] }, 0)).toBe(false);
  });

  it('the guest is offered no points', async () => {
    const actor = createActor(checkoutMachine.provide({
      actors: { loadOptions: fromPromise(async (): Promise<CheckoutOptions> => ({ paymentMethods: payment, addresses: [], ...rewards })) },
    }), { input: { isAuthenticated: true, isGuest: true, brandId: 7, branchId: 1, lines } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectRewards(actor.getSnapshot()).pointsLines).toEqual([]);
  });

  it('a free item line and a points line go as their own request lines', () => {
    const products = orderProductsOf({ ...rewards, lines: [{ productId: ESPRESSO, quantity: 2, optionIds: [] }, lines[1]], pointsLines: [1], freeItemLine: 0 });
    expect(products.map((p) => [p.productId, p.quantity, p.redeemItem, p.isRedeem])).toEqual([[ESPRESSO, 1, true, false], [ESPRESSO, 1, false, false], [CAPPUCCINO, 1, false, true]]);
  });
});

describe('a sold-out line', () => {
  it('holds Place order until it is removed, and a refusal naming it marks it with no toast', async () => {
    const toasts: string[] = [];
    const refusal: PlacedOrder = { isSuccessed: false, isPaid: false, message: 'Pistachio Cookie is sold out.', paymentUrl: null, orderId: null, ohash: null, soldOut: [COOKIE] };
    const actor = createActor(checkoutMachine.provide({
      actors: {
        loadOptions: fromPromise(async (): Promise<CheckoutOptions> => ({ paymentMethods: payment, addresses: [] })),
        placeOrder: fromPromise(async (): Promise<PlacedOrder> => refusal),
      },
      actions: { showError: (_, p) => { toasts.push(p.message); } },
    }), { input: { isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1, lines } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'checkout.submit' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.soldOut).toEqual([COOKIE]);
    expect(toasts).toEqual([]);
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'checkout.cart', lines: lines.slice(0, 2), soldOut: [COOKIE] });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
  });

  it('marked and removed while the options load (the page is drawn before them): the guest\'s details and the removal are kept', async () => {
    let answer: (o: CheckoutOptions) => void = () => {};
    const actor = createActor(checkoutMachine.provide({
      actors: { loadOptions: fromPromise(() => new Promise<CheckoutOptions>((resolve) => { answer = resolve; })) },
    }), { input: { isAuthenticated: true, isGuest: true, brandId: 7, branchId: 1, lines } }).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    actor.send({ type: 'checkout.name', value: 'Huda' });
    actor.send({ type: 'checkout.phone', value: '+96550000043' });
    actor.send({ type: 'checkout.touch', field: 'name' });
    actor.send({ type: 'checkout.cart', lines, soldOut: [COOKIE] });
    expect(actor.getSnapshot().context.soldOut).toEqual([COOKIE]);
    actor.send({ type: 'checkout.cart', lines: lines.slice(0, 2), soldOut: [COOKIE] });
    answer({ paymentMethods: payment, addresses: [] });
    await waitFor(actor, (s) => s.matches('editing'));
    const c = actor.getSnapshot().context;
    expect([c.guestName, c.guestPhone, c.touched.name, c.lines.map((l) => l.productId)]).toEqual(['Huda', '+96550000043', true, [ESPRESSO, CAPPUCCINO]]);
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
  });
});
