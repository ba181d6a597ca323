// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { checkoutMachine, orderRequestOf, selectCanSubmit, selectWallet, type CheckoutOptions } from '../../machines/checkout';

/**
 * Issue 24 in the checkout machine: "pay with the wallet": offered to a registered customer who
 * holds a balance, never to the guest; chosen, the request says payWithWallet (the server prices
 * and spends it: tests/server/shop-close-wallet.test.ts) and Place order needs no payment method.
 */
const lines = [{ productId: 1, quantity: 1, optionIds: [] }];

async function editing(isGuest: boolean, options: Partial<CheckoutOptions> = {}) {
  const actor = createActor(checkoutMachine.provide({
    actors: { loadOptions: fromPromise(async (): Promise<CheckoutOptions> => ({ paymentMethods: [], addresses: [], walletBalance: 5, ...options })) },
  }), { input: { isAuthenticated: true, isGuest, brandId: 7, branchId: 1, lines } }).start();
  await waitFor(actor, (s) => s.matches('editing'));
  return actor;
}

describe('the wallet at checkout', () => {
  it('pays the whole order when chosen: the request says payWithWallet, and no payment method is needed', async () => {
    const actor = await editing(false);
    expect(selectWallet(actor.getSnapshot())).toEqual({ balance: 5, offered: true, chosen: false });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false); // no payment method offered
    expect('payWithWallet' in orderRequestOf(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'checkout.wallet', use: true });
    expect(selectWallet(actor.getSnapshot()).chosen).toBe(true);
    expect(orderRequestOf(actor.getSnapshot().context)).toMatchObject({ payWithWallet: true });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'checkout.wallet', use: false });
    expect(orderRequestOf(actor.getSnapshot().context).payWithWallet).toBeUndefined();
  });

  it('is not offered to the guest, nor with an empty wallet', async () => {
    for (const actor of [await editing(true), await editing(false, { walletBalance: 0 })]) {
      expect(selectWallet(actor.getSnapshot()).offered).toBe(false);
      actor.send({ type: 'checkout.wallet', use: true });
      expect(selectWallet(actor.getSnapshot()).chosen).toBe(false);
    }
  });
});

describe('Back from the location picker', () => {
  it('the checkout shown again starts over from loading instead of staying at leftForLocation ("Loading…")', async () => {
    let loads = 0;
    const actor = createActor(checkoutMachine.provide({
      actors: { loadOptions: fromPromise(async (): Promise<CheckoutOptions> => { loads++; return { paymentMethods: [{ paymentSystemId: 2, name: 'Cash', isCard: false }], addresses: [] }; }) },
    }), { input: { isAuthenticated: true, isGuest: true, brandId: 7, branchId: 1, lines, guest: { name: 'Huda', phone: '50000043' } } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'checkout.mode', mode: 'delivery' });
    expect(actor.getSnapshot().matches('leftForLocation')).toBe(true);
    actor.send({ type: 'checkout.returned' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(loads).toBe(2);
    expect(actor.getSnapshot().context.guestName).toBe('Huda');
  });
});
