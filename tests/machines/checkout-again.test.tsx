import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../support/renderApp';
import { ordersMatching, path } from '../support/shopUi';
import {
  admin, assigned, checkoutShown, expectPlacedAtServerPrice, expectUnpaidOrderShown, fillGuest, freshPath, guestName, PHONE, placeOrder, server,
  startAsGuest, submit, useCheckoutPage,
} from '../support/checkoutPage';

/**
 * Checkout journeys that start a second checkout (a new page is a new checkout machine) or hold the
 * page's first read back: plain tests beside the checkout's model walks (checkout.model.test.tsx),
 * on the same real page and server.
 */
useCheckoutPage();

// A new page on the same cart is a new checkout machine, given the series the browser kept (issue 21).
describe('Place order again after a lost answer', () => {
  it('in the same page: the same order, once (the series\' key is kept)', async () => {
    try {
      await startAsGuest();
      fillGuest(guestName, PHONE);
      await waitFor(() => expect(placeOrder().disabled).toBe(false));
      await submit({ next: { key: 'placeOrder.error' } } as never);
      const saved = await ordersMatching(server, admin, guestName);
      expect(saved.totalCount).toBe(1);
      await submit({} as never);
      const order = await expectPlacedAtServerPrice();
      expect(order.id).toBe(saved.data[0].id);
      expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
    } finally { cleanup(); }
  });
});

describe('checkout opened again on the same cart', () => {
  it('Back and a fresh load after the payment page lead to the order waiting for its payment', async () => {
    try {
      await startAsGuest();
      fillGuest(guestName, PHONE);
      fireEvent.click(screen.getByRole('radio', { name: 'VISA/MASTER' }));
      await waitFor(() => expect(placeOrder().disabled).toBe(false));
      fireEvent.click(placeOrder());
      await waitFor(() => expect(assigned).toHaveLength(1));
      // The browser loads /check-out again.
      cleanup();
      renderApp(server, '/check-out');
      await expectUnpaidOrderShown();
    } finally { cleanup(); }
  });

  it('after a lost answer, a reload and Place order again give the order the lost answer was about, once', async () => {
    try {
      await startAsGuest();
      fillGuest(guestName, PHONE);
      await waitFor(() => expect(placeOrder().disabled).toBe(false));
      await submit({ next: { key: 'placeOrder.error' } } as never);
      const saved = await ordersMatching(server, admin, guestName);
      expect(saved.totalCount).toBe(1);
      cleanup();
      renderApp(server, '/check-out');
      await checkoutShown();
      fillGuest(guestName, PHONE);
      await waitFor(() => expect(placeOrder().disabled).toBe(false));
      fireEvent.click(placeOrder());
      const order = await expectPlacedAtServerPrice();
      expect(order.id).toBe(saved.data[0].id);
      expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
    } finally { cleanup(); }
  });
});

// The page is drawn while the machine loads its options (issue 24, the first screen without Apollo):
// what the guest types there is the machine's already, not dropped until `editing`.
describe('the first screen, before the options', () => {
  it("the guest's name and phone typed while the options load are kept, and the order carries them", async () => {
    const realFetch = globalThis.fetch;
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    try {
      await freshPath();
      // The options' first read (the payment methods) is held back until the guest has typed.
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (typeof init?.body === 'string' && init.body.includes('"operationName":"CheckoutPaymentMethods"')) await held;
        return realFetch(input, init);
      }) as typeof fetch;
      renderApp(server, '/cart');
      fireEvent.click(await screen.findByRole('link', { name: 'Checkout as guest' }));
      await waitFor(() => expect(path()).toBe('/check-out'));
      await screen.findByLabelText('Name');
      fillGuest(guestName, PHONE);
      // Still loading: no Place order yet, and what was typed is shown.
      expect(screen.queryByRole('button', { name: 'Place order' })).toBeNull();
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(guestName);
      expect((screen.getByLabelText('Phone') as HTMLInputElement).value.replace(/\s/g, '')).toBe(PHONE.replace(/\s/g, ''));
      release();
      await checkoutShown();
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(guestName);
      await waitFor(() => expect(placeOrder().disabled).toBe(false));
      fireEvent.click(placeOrder());
      const order = await expectPlacedAtServerPrice();
      expect(order).toMatchObject({ guestCustomerName: guestName, guestPhoneNumber: '+96550000077' });
    } finally {
      release();
      globalThis.fetch = realFetch;
      cleanup();
    }
  });
});
