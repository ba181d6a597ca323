import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { kd, lineTotal, ordersMatching, path, seedCart, serverProduct, storedCart, type ServerProduct } from '../support/shopUi';
import { checkoutMachine } from '../../machines/checkout';
import { externalNavigation } from '../../src/shop/checkout/externalNavigation';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * Model of checkout as the customer lives it. The events stand for the outcomes of the checkout
 * machine's actors (the order accepted, refused by the server, its answer lost, a payment URL)
 * and are produced for real: clicks in the real views against a real server, which is made busy
 * to refuse, or whose answer is dropped on the way back. Each state checks what the customer
 * sees and what the server holds (the order at the server's price, exactly once).
 *
 * Issue 21: Back from the payment page (the page kept in memory, or loaded again) leads to the
 * order waiting for its payment ("Payment not completed", Pay again), and a checkout opened again
 * on the same cart after a lost answer places nothing new (the series' key is kept for the cart).
 */
const modelMachine = createMachine({
  id: 'checkoutModel',
  initial: 'cartReady',
  states: {
    cartReady: { on: { CHECKOUT_AS_GUEST: 'guestForm', OPEN_CHECKOUT_SIGNED_OUT: 'sentToLogin', SIGN_IN_AND_CHECKOUT: 'customerForm' } },
    sentToLogin: {},
    guestForm: { on: { LEAVE_DETAILS_EMPTY: 'detailsMissing', TYPE_SHORT_PHONE: 'phoneInvalid', FILL_DETAILS: 'guestReady', EMPTY_CART_AND_RETURN: 'sentHome' } },
    sentHome: {},
    detailsMissing: { on: { FILL_DETAILS: 'guestReady' } },
    phoneInvalid: { on: { FILL_DETAILS: 'guestReady' } },
    guestReady: {
      on: {
        ORDER_ACCEPTED: 'placed',
        ORDER_REFUSED: 'refused',
        ANSWER_LOST: 'answerLost',
        PAY_BY_CARD: 'sentToPayment',
        CHOOSE_DELIVERY: 'sentToLocationPicker',
      },
    },
    placed: {},
    refused: { on: { ORDER_ACCEPTED: 'placed' } },
    answerLost: { on: { ORDER_ACCEPTED: 'placedOnce', RELOAD_AND_PLACE_AGAIN: 'placedOnceAfterReload' } },
    placedOnce: {},
    placedOnceAfterReload: {},
    sentToPayment: { on: { BACK_TO_KEPT_PAGE: 'backAtUnpaidOrder', BACK_AND_RELOAD: 'backAtUnpaidOrderReloaded' } },
    backAtUnpaidOrder: {},
    backAtUnpaidOrderReloaded: {},
    sentToLocationPicker: {},
    customerForm: { on: { CHOOSE_CAR_SERVICE: 'carNeeded' } },
    carNeeded: { on: { SAVE_CAR: 'carChosen' } },
    carChosen: { on: { ORDER_ACCEPTED: 'placedForCar' } },
    placedForCar: {},
  },
});
const model = createTestModel(modelMachine);

let server: ServerProcess;
let cappuccino: ServerProduct;
let admin: string;
let branchUser: string;
let customer: string;
/** 2 × Cappuccino (Large): the server's price. */
let expectedTotal: number;
beforeAll(async () => {
  server = await startServerProcess();
  cappuccino = await serverProduct(server, 'Cappuccino');
  expectedTotal = lineTotal(cappuccino, [cappuccino.option('Size', 'Large')], 2);
  [admin, branchUser, customer] = await Promise.all([server.api.login('admin'), server.api.login('branchuser'), server.api.login('customer')]);
});
afterAll(async () => { cleanup(); await server?.close(); });

const setBranchBusy = async (isBusy: boolean) => {
  const res = await server.api.put('/api/services/app/Branch/UpdateIsbusy', { token: branchUser, query: { isBusy } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
};

/** Per path: the guest's name (to find the path's orders on the server), the plate of its car, where the browser was sent. */
let guestName = '';
let plate = '';
let assigned: string[] = [];
let lostOrderId = 0;

const placeOrder = () => screen.getByRole('button', { name: /Place order|Placing your order/ }) as HTMLButtonElement;
const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;

async function checkoutShown() {
  await waitFor(() => expect(path()).toBe('/check-out'));
  await screen.findByRole('button', { name: 'Place order' });
}

async function fillGuest(name: string, phone: string) {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
  fireEvent.blur(screen.getByLabelText('Name'));
  fireEvent.change(screen.getByLabelText('Phone'), { target: { value: phone } });
  fireEvent.blur(screen.getByLabelText('Phone'));
}

async function expectPlacedAtServerPrice(opts: { paymentSystemId?: number; deliverySystem?: string } = {}) {
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
async function expectUnpaidOrderShown() {
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

async function expectGuestCheckoutIntact() {
  await checkoutShown();
  expect(screen.queryByText(/Placing your order/)).toBeNull();
  expect(placeOrder().disabled).toBe(false);
  expect(storedCart()).toHaveLength(1);
}

describe('checkout (model-based, real views, real server)', () => {
  const paths = model.getShortestPaths();
  it('covers every state of the model, and the real machine has the states it stands for', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect(reached.size).toBe(Object.keys(modelMachine.config.states!).length);
    expect(Object.keys(checkoutMachine.config.states!)).toEqual(
      ['entering', 'leftForHome', 'leftForLogin', 'leftForLocation', 'leftForUnpaidOrder', 'loading', 'loadFailed', 'editing', 'submitting', 'redirectingToPayment', 'placed'],
    );
  });

  paths.forEach((p, n) => {
    it(p.description, async () => {
      resetBrowser();
      await setBranchBusy(false);
      guestName = `Guest ${n} ${Math.random().toString(36).slice(2, 8)}`;
      plate = `${10000 + n}${Math.floor(Math.random() * 90 + 10)}`;
      assigned = [];
      externalNavigation.assign = (url) => { assigned.push(url); };
      seedCart([{ product: cappuccino, options: ['Size/Large'], quantity: 2 }]);
      renderApp(server, '/cart');
      await p.test({
        states: {
          cartReady: async () => {
            await screen.findByRole('link', { name: 'Checkout as guest' });
            expect(screen.getByTestId('cart-total').textContent).toBe(kd(expectedTotal));
          },
          sentToLogin: async () => {
            await waitFor(() => expect(path()).toBe('/login'));
            expect(new URLSearchParams(window.location.search).get('next')).toBe('/check-out');
          },
          sentHome: async () => {
            await waitFor(() => expect(path()).toBe('/'));
            await screen.findByRole('heading', { name: 'Choose a branch' });
          },
          guestForm: async () => {
            await checkoutShown();
            // Pick-up and payment method 2 by default; the guest must give a name and a phone first.
            expect(radio('Pick-up').checked).toBe(true);
            expect(radio('Cash at branch').checked).toBe(true);
            expect(screen.getByRole('radio', { name: 'VISA/MASTER' })).toBeTruthy();
            expect(placeOrder().disabled).toBe(true);
            expect(screen.queryByRole('alert')).toBeNull();
            expect(localStorage.getItem('userId')).toBe('18');
          },
          detailsMissing: async () => {
            await screen.findByText(TEXT.guest.nameRequired);
            screen.getByText(TEXT.guest.phoneRequired);
            expect(placeOrder().disabled).toBe(true);
          },
          phoneInvalid: async () => {
            await screen.findByText(TEXT.guest.invalidPhone);
            expect(screen.queryByText(TEXT.guest.nameRequired)).toBeNull();
            expect(placeOrder().disabled).toBe(true);
          },
          guestReady: async () => {
            await waitFor(() => expect(placeOrder().disabled).toBe(false));
            expect(screen.queryByText(TEXT.guest.invalidPhone)).toBeNull();
            expect(screen.queryByText(TEXT.guest.phoneRequired)).toBeNull();
            expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('500 00077');
          },
          placed: async () => {
            const order = await expectPlacedAtServerPrice();
            expect(order).toMatchObject({ guestCustomerName: guestName, guestPhoneNumber: '+96550000077' });
            expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
          },
          refused: async () => {
            // Not successful: the server's message, the button enabled again, nothing ordered.
            expect((await screen.findByTestId('checkout-error')).textContent).toMatch(/busy/);
            await expectGuestCheckoutIntact();
            expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(0);
          },
          answerLost: async () => {
            // The call threw: the button is enabled again, silently; the server did save the order.
            await expectGuestCheckoutIntact();
            expect(screen.queryByTestId('checkout-error')).toBeNull();
            expect(screen.queryByRole('alert')).toBeNull();
            const saved = await ordersMatching(server, admin, guestName);
            expect(saved.totalCount).toBe(1);
            lostOrderId = saved.data[0].id;
          },
          placedOnce: async () => {
            // The retry carried the same idempotency key: the same order, not a second one.
            const order = await expectPlacedAtServerPrice();
            expect(order.id).toBe(lostOrderId);
            expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
          },
          sentToPayment: async () => {
            await waitFor(() => expect(assigned).toHaveLength(1));
            expect(assigned[0]).toMatch(/\/payments\/sandbox\/sbx_/);
            // The cart stays until /track-order knows the order (a lost payment round trip keeps it).
            expect(storedCart()).toHaveLength(1);
            const saved = await ordersMatching(server, admin, guestName);
            expect(saved.totalCount).toBe(1);
            expect(saved.data[0]).toMatchObject({ total: expectedTotal, payment: 'unpaid', paymentSystemId: 3 });
            // The payment page the browser is sent to asks for the server's amount.
            const page = await fetch(new URL(assigned[0], server.url));
            expect(page.status).toBe(200);
            expect(await page.text()).toContain(kd(expectedTotal));
          },
          backAtUnpaidOrder: expectUnpaidOrderShown,
          backAtUnpaidOrderReloaded: expectUnpaidOrderShown,
          placedOnceAfterReload: async () => {
            // A new page on the same cart sent the same request with the kept key: the order the lost answer was about.
            const order = await expectPlacedAtServerPrice();
            expect(order.id).toBe(lostOrderId);
            expect((await ordersMatching(server, admin, guestName)).totalCount).toBe(1);
          },
          sentToLocationPicker: async () => {
            await waitFor(() => expect(path()).toBe('/select-location'));
            expect(new URLSearchParams(window.location.search).get('address')).toBe('guest_checkout');
          },
          customerForm: async () => {
            await checkoutShown();
            expect(localStorage.getItem('userId')).toBe('5');
            expect(screen.queryByLabelText('Name')).toBeNull();
            expect(radio('Pick-up').checked).toBe(true);
            expect(placeOrder().disabled).toBe(false);
          },
          carNeeded: async () => {
            expect(radio('Car service').checked).toBe(true);
            await screen.findByRole('form', { name: 'Add a car' });
            expect(placeOrder().disabled).toBe(true);
          },
          carChosen: async () => {
            const car = await screen.findByRole('radio', { name: new RegExp(`plate ${plate}`) }) as HTMLInputElement;
            expect(car.checked).toBe(true);
            expect(placeOrder().disabled).toBe(false);
            const cars = await server.api.get('/api/services/app/Cars/GetCustomerCars', { token: customer });
            expect(cars.body.result.map((c: { plateNumber: string }) => c.plateNumber)).toContain(plate);
            // The list is read again after TIMINGS.carSaveRefreshMs; the chosen car stays chosen.
            await new Promise((r) => setTimeout(r, TIMINGS.carSaveRefreshMs + 300));
            expect((screen.getByRole('radio', { name: new RegExp(`plate ${plate}`) }) as HTMLInputElement).checked).toBe(true);
          },
          placedForCar: async () => {
            const order = await expectPlacedAtServerPrice({ deliverySystem: 'carService' });
            expect(order.carDetails).toContain(`plate ${plate}`);
            // The customer's history lists it.
            navigateTo('/track/previous');
            await screen.findByText(order.orderNumber);
          },
        },
        events: {
          CHECKOUT_AS_GUEST: () => { fireEvent.click(screen.getByRole('link', { name: 'Checkout as guest' })); },
          OPEN_CHECKOUT_SIGNED_OUT: () => navigateTo('/check-out'),
          SIGN_IN_AND_CHECKOUT: async () => {
            fireEvent.click(screen.getByRole('link', { name: 'Sign in and checkout' }));
            await waitFor(() => expect(path()).toBe('/login'));
            fireEvent.change(await screen.findByLabelText(/User name, e-mail or phone/), { target: { value: 'customer' } });
            fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123qwe' } });
            fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
          },
          LEAVE_DETAILS_EMPTY: () => {
            fireEvent.blur(screen.getByLabelText('Name'));
            fireEvent.blur(screen.getByLabelText('Phone'));
          },
          TYPE_SHORT_PHONE: () => fillGuest(guestName, '5000'),
          FILL_DETAILS: () => fillGuest(guestName, '500 00077'),
          EMPTY_CART_AND_RETURN: async () => {
            navigateTo('/cart');
            fireEvent.click(await screen.findByRole('button', { name: 'Remove Cappuccino' }));
            await screen.findByText('Your cart is empty.');
            navigateTo('/check-out');
          },
          ORDER_ACCEPTED: async () => {
            await setBranchBusy(false);
            fireEvent.click(placeOrder());
          },
          ORDER_REFUSED: async () => {
            await setBranchBusy(true);
            fireEvent.click(placeOrder());
            await waitFor(() => expect(placeOrder().textContent).toBe('Place order'));
          },
          ANSWER_LOST: async () => {
            const realFetch = globalThis.fetch;
            globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
              if (typeof init?.body === 'string' && init.body.includes('PlaceOrder')) {
                globalThis.fetch = realFetch;
                await realFetch(input, init); // the server saves the order ...
                throw new TypeError('Failed to fetch'); // ... and the answer never arrives
              }
              return realFetch(input, init);
            }) as typeof fetch;
            // A double click sends one request: the second finds the button busy.
            fireEvent.click(placeOrder());
            fireEvent.click(placeOrder());
            await waitFor(() => expect(globalThis.fetch).toBe(realFetch));
            await waitFor(() => expect(placeOrder().textContent).toBe('Place order'));
          },
          PAY_BY_CARD: () => {
            fireEvent.click(screen.getByRole('radio', { name: 'VISA/MASTER' }));
            fireEvent.click(placeOrder());
          },
          CHOOSE_DELIVERY: () => { fireEvent.click(radio('Delivery')); },
          // The browser shows the checkout page it kept in memory (bfcache): pageshow with persisted.
          BACK_TO_KEPT_PAGE: () => { act(() => { window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true })); }); },
          // The browser loads /check-out again.
          BACK_AND_RELOAD: () => { cleanup(); renderApp(server, '/check-out'); },
          RELOAD_AND_PLACE_AGAIN: async () => {
            cleanup();
            renderApp(server, '/check-out');
            await checkoutShown();
            await fillGuest(guestName, '500 00077');
            await waitFor(() => expect(placeOrder().disabled).toBe(false));
            fireEvent.click(placeOrder());
          },
          CHOOSE_CAR_SERVICE: () => { fireEvent.click(radio('Car service')); },
          SAVE_CAR: async () => {
            const form = await screen.findByRole('form', { name: 'Add a car' });
            const choose = (label: string, option: string) => {
              const select = within(form).getByLabelText(label) as HTMLSelectElement;
              const value = [...select.options].find((o) => o.textContent === option)!.value;
              fireEvent.change(select, { target: { value } });
            };
            choose('Car brand', 'Toyota');
            choose('Type', 'SUV');
            choose('Color', 'White');
            fireEvent.change(within(form).getByLabelText('Plate number'), { target: { value: plate } });
            fireEvent.click(within(form).getByRole('button', { name: 'Save car' }));
          },
        },
      });
    });
  });
});
