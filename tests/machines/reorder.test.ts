import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { cartMachine, selectCartItems } from '../../machines/cart';
import { planReorder, reorderChanged, type PastLine, type TodayProduct } from '../../machines/reorder';

/** Issue 24, "Order again": a past order's lines at today's prices, and what changed. */
const cappuccino: PastLine = {
  productId: 1, name: 'Cappuccino', quantity: 2, unitPrice: 1.75, isRedeem: false,
  options: [{ id: 10, name: 'Large', price: 0.25 }, { id: 11, name: 'Oat', price: 0.25 }],
};
const cookie: PastLine = { productId: 2, name: 'Pistachio Cookie', quantity: 1, unitPrice: 0.75, isRedeem: false, options: [] };
const espresso: PastLine = { productId: 3, name: 'Espresso', quantity: 1, unitPrice: 0, isRedeem: true, options: [] };
const today = (over: Partial<Record<number, Partial<TodayProduct>>> = {}): TodayProduct[] => [
  { id: 1, name: 'Cappuccino', price: 1.25, available: true, options: [{ id: 10, name: 'Large', price: 0.25, available: true }, { id: 11, name: 'Oat', price: 0.25, available: true }], ...over[1] },
  { id: 2, name: 'Pistachio Cookie', price: 0.75, available: true, options: [], ...over[2] },
  { id: 3, name: 'Espresso', price: 1, available: true, options: [], ...over[3] },
];

describe('planReorder', () => {
  it('adds every line as it was when nothing changed', () => {
    const plan = planReorder([cappuccino, cookie], today());
    expect(reorderChanged(plan)).toBe(false);
    expect(plan.adds.map((a) => [a.product.id, a.quantity, a.selected_options.map((o) => o.id)])).toEqual([[1, 2, [10, 11]], [2, 1, []]]);
  });

  it('leaves out a product off the menu or not available now, and names it', () => {
    const offMenu = today().filter((p) => p.id !== 2);
    expect(planReorder([cappuccino, cookie], offMenu)).toMatchObject({ unavailable: ['Pistachio Cookie'], adds: [{ product: { id: 1 } }] });
    const soldOut = planReorder([cappuccino, cookie], today({ 1: { available: false } }));
    expect(soldOut.unavailable).toEqual(['Cappuccino']);
    expect(soldOut.adds.map((a) => a.product.id)).toEqual([2]);
  });

  it('drops an option no longer offered (gone or not available), without calling that a price change', () => {
    const plan = planReorder([cappuccino], today({ 1: { options: [{ id: 10, name: 'Large', price: 0.25, available: true }, { id: 11, name: 'Oat', price: 0.25, available: false }] } }));
    expect(plan.optionsDropped).toEqual([{ name: 'Cappuccino', options: ['Oat'] }]);
    expect(plan.priceChanges).toEqual([]);
    expect(plan.adds[0].selected_options).toEqual([{ id: 10, name: 'Large', price: 0.25 }]);
  });

  it('takes today\'s prices and says which moved; a reward line is added at its price', () => {
    const plan = planReorder([cappuccino, espresso], today({ 1: { price: 1.5 } }));
    expect(plan.priceChanges).toEqual([
      { name: 'Cappuccino', was: 1.75, now: 2, wasReward: false },
      { name: 'Espresso', was: 0, now: 1, wasReward: true },
    ]);
    expect(plan.adds.map((a) => a.product.price)).toEqual([1.5, 1]);
  });

  it('fills the cart through its own add events: merged with what is there, at today\'s prices', () => {
    const cart = createActor(cartMachine, { input: {} }).start();
    cart.send(planReorder([cookie], today()).adds[0]);
    const plan = planReorder([cappuccino, cookie], today({ 2: { price: 0.9 } }));
    for (const add of plan.adds) cart.send(add);
    cart.send(plan.reprice);
    const items = selectCartItems(cart.getSnapshot());
    expect(items.map((i) => [i.product.name, i.product.Quantity, i.product.price])).toEqual([['Pistachio Cookie', 2, 0.9], ['Cappuccino', 2, 1.25]]);
  });
});
