import { afterAll, beforeAll, expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from './serverProcess';
import { renderApp, resetBrowser } from './renderApp';
import { kd, lineTotal, ordersMatching, path, seedCart, serverProduct, storedCart, type ServerProduct } from './shopUi';
import type { checkoutMachine, PlacedOrder } from '../../machines/checkout';
import { externalNavigation } from '../../src/shop/checkout/externalNavigation';

/**
 * The real checkout page on a real server, as the checkout's model walks (tests/machines/checkout.model.test.tsx)
 * and its plain journeys (checkout-again.test.tsx) drive it: a fresh browser with 2 × Cappuccino (Large)
 * in the cart per path, the guest's details typed, Place order made to be accepted, refused (the branch
 * made busy) or its answer lost, and what the server then holds. `useCheckoutPage()` starts the server
 * for the file; the per-path values below are live: each path's `freshPath()` sets them.
 */
export type Checkout = SnapshotFrom<typeof checkoutMachine>;
export type Step = { event: Record<string, unknown>; from: Checkout; next?: { key: string; event: Record<string, unknown> } };

export const CASH = 2, CARD = 3;
export const PHONE = '500 00077';
export const PLACED: PlacedOrder = { isSuccessed: true, isPaid: false, message: '', paymentUrl: null, orderId: 1, ohash: 'h' };
export const REFUSED: PlacedOrder = { isSuccessed: false, isPaid: false, message: 'The branch is busy', paymentUrl: null, orderId: null, ohash: null };

export let server: ServerProcess;
export let cappuccino: ServerProduct;
export let admin: string;
export let branchUser: string;
export let customer: string;
/** 2 × Cappuccino (Large): the server's price. */
export let expectedTotal: number;

export function useCheckoutPage() {
  beforeAll(async () => {
    server = await startServerProcess();
    cappuccino = await serverProduct(server, 'Cappuccino');
    expectedTotal = lineTotal(cappuccino, [cappuccino.option('Size', 'Large')], 2);
    [admin, branchUser, customer] = await Promise.all([server.api.login('admin'), server.api.login('branchuser'), server.api.login('customer')]);
  });
  afterAll(async () => { cleanup(); await server?.close(); });
}

export const setBranchBusy = async (isBusy: boolean) => {
  const res = await server.api.put('/api/services/app/Branch/UpdateIsbusy', { token: branchUser, query: { isBusy } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
};

/** Per path: the guest's name (to find the path's orders on the server), the plate of its car, where the browser was sent. */
export let guestName = '';
export let plate = '';
export let assigned: string[] = [];

export const placeOrder = () => screen.getByRole('button', { name: /Place order|Placing your order/ }) as HTMLButtonElement;
export const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;

export async function checkoutShown() {
  await waitFor(() => expect(path()).toBe('/check-out'));
  await screen.findByRole('button', { name: 'Place order' });
}

export function fillGuest(name: string, phone: string) {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
  fireEvent.blur(screen.getByLabelText('Name'));
  fireEvent.change(screen.getByLabelText('Phone'), { target: { value: phone } });
  fireEvent.blur(screen.getByLabelText('Phone'));
}

export async function expectPlacedAtServerPrice(opts: { paymentSystemId?: number; deliverySystem?: string } = {}) {
  await waitFor(() => expect(path()).toBe('/track-order'));
  await screen.findByRole('heading', { name: 'Order placed' }); // a cash order: placed, not yet a successful transaction (issue 24)
  const url = new URL(window.location.href);
  const orderId = Number(url.searchParams.get('orderId'));
  const ohash = url.searchParams.get('ohash');
  expect((await screen.findByTestId('order-total')).textContent).toBe(kd(expectedTotal));
  // The server's truth, read with the guest's ohash as any guest would.
  const guest = await server.api.guestToken();
  const order = await server.api.get('/api/services/app/Store/GetOrderDetail', { token: guest, query: { orderId, ohash } });
  expect(order.status, JSON.stringify(order.body.error)).toBe(200);
  expect(order.body.result).toMatchObject({
    total: expectedTotal, brandId: 7, branchId: 1,
    deliverySystem: opts.deliverySystem ?? 'pickup', paymentSystemId: opts.paymentSystemId ?? 2,
  });
  expect(order.body.result.items).toEqual([expect.objectContaining({ productId: cappuccino.id, quantity: 2, options: [expect.objectContaining({ id: cappuccino.option('Size', 'Large').id })] })]);
  expect(storedCart()).toEqual([]);
  // The ohash reads the tracker only; the guest's name, phone and car are read as the branch reads them (issue 24).
  return (await server.api.get('/api/services/app/Store/GetOrderDetailAsBranchUser', { token: branchUser, query: { orderId } })).body.result;
}

/** Back from the payment page: the order waiting for its payment, with Pay again (its open payment), and no second order. */
export async function expectUnpaidOrderShown() {
  await waitFor(() => expect(path()).toBe('/track-order'));
  await screen.findByRole('heading', { name: 'Payment not completed' });
  const saved = await ordersMatching(server, admin, guestName);
  expect(saved.totalCount).toBe(1);
  expect(new URLSearchParams(window.location.search).get('orderId')).toBe(String(saved.data[0].id));
  // The tracker knows the order now: the cart that made it is gone, so no checkout can place it again.
  await waitFor(() => expect(storedCart()).toEqual([]));
  fireEvent.click(screen.getByRole('button', { name: 'Pay again' }));
  await waitFor(() => expect(assigned).toHaveLength(2));
  expect(assigned[1]).toBe(assigned[0]);
  expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
}

let walks = 0;
/** A fresh browser with the cart, and this path's names. */
export async function freshPath() {
  const n = ++walks;
  resetBrowser();
  await setBranchBusy(false);
  guestName = `Guest ${n} ${Math.random().toString(36).slice(2, 8)}`;
  plate = `${10000 + (n % 80000)}${Math.floor(Math.random() * 90 + 10)}`;
  assigned = [];
  externalNavigation.assign = (url) => { assigned.push(url); };
  seedCart([{ product: cappuccino, options: ['Size/Large'], quantity: 2 }]);
}
/** On /check-out as a guest (the cart's own link signs the guest in). */
export async function startAsGuest() {
  await freshPath();
  renderApp(server, '/cart');
  fireEvent.click(await screen.findByRole('link', { name: 'Checkout as guest' }));
  await checkoutShown();
}
// Each walk unmounts its view, so nothing it started outlives it (tests/support/leakWatch.ts); a walk
// that failed half-way first lets the requests it left in flight come back.
export const stop = async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); };

/** The next Place order reaches the server, which saves the order, and its answer never comes back. */
export function loseNextAnswer() {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string' && init.body.includes('PlaceOrder')) {
      globalThis.fetch = realFetch;
      await realFetch(input, init); // the server saves the order ...
      throw new TypeError('Failed to fetch'); // ... and the answer never arrives
    }
    return realFetch(input, init);
  }) as typeof fetch;
  return realFetch;
}

/** Place order, made to get the answer the path asks for next. */
export async function submit(step: Step) {
  const answer = step.next?.key === 'placeOrder.error' ? 'lost' : (step.next?.event.output as PlacedOrder | undefined) === REFUSED ? 'refused' : 'placed';
  await setBranchBusy(answer === 'refused');
  if (answer === 'lost') {
    const realFetch = loseNextAnswer();
    // A double click sends one request: the second finds the button busy.
    fireEvent.click(placeOrder());
    fireEvent.click(placeOrder());
    await waitFor(() => expect(globalThis.fetch).toBe(realFetch));
  } else fireEvent.click(placeOrder());
  if (answer !== 'placed') await waitFor(() => expect(placeOrder().textContent).toBe('Place order'));
}

/** What the payment step shows for the machine's choice, and the server's orders for this path. */
export async function expectEditing(s: Checkout) {
  await checkoutShown();
  const c = s.context;
  const modeLabel = { pickup: 'Pick-up', carService: 'Car service', delivery: 'Delivery' }[c.mode];
  expect(radio(modeLabel).checked).toBe(true);
  expect(screen.getByRole('radio', { name: c.paymentMethodId === CARD ? 'VISA/MASTER' : /^Cash at branch/ }) as HTMLInputElement).toHaveProperty('checked', true);
  // Place order is enabled exactly when the machine lets it be sent.
  await waitFor(() => expect(placeOrder().disabled).toBe(!s.can({ type: 'checkout.submit' })));
  expect(screen.queryByText(/Placing your order/)).toBeNull();
}
