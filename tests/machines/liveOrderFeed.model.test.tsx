import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { installNetworkSwitch } from '../support/networkSwitch';
import { placeGuestOrder } from '../support/guestOrders';
import { liveOrderFeedMachine } from '../../machines/liveOrderFeed';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * The live order feed as a branch user lives it, on /Currentorder, against a real server process.
 * The model's events stand for what the feed's actors meet: a new order on the subscription, the
 * connection dropping (the network cable is pulled: the gateway stream breaks, the browser says
 * offline), an order placed meanwhile, and the network coming back (reconnect, then catch-up).
 * Each state checks what the user sees and hears: the toast, the alert sound being played, the list
 * refreshing 2 s later, the offline banner, the feed's status.
 */
const model = createTestModel(createMachine({
  id: 'liveOrderFeedModel',
  initial: 'live',
  states: {
    live: { on: { NEW_ORDER: 'alerted', DROP: 'offline' } },
    alerted: { on: { DROP: 'offline' } },
    offline: { on: { ORDER_WHILE_OFFLINE: 'missedWhileOffline', RECONNECT: 'backLive' } },
    missedWhileOffline: { on: { RECONNECT: 'caughtUp' } },
    backLive: { on: { NEW_ORDER: 'alertedAfterReconnect' } },
    alertedAfterReconnect: {},
    caughtUp: {},
  },
}));

let server: ServerProcess;
let network: ReturnType<typeof installNetworkSwitch>;
let guestToken: string;
beforeAll(async () => {
  // jsdom has no audio: the sound is asked for (window.__alertLog) but not heard; Chromium hears it (tests/e2e).
  window.HTMLMediaElement.prototype.play = () => Promise.resolve();
  window.HTMLMediaElement.prototype.load = () => {};
  server = await startServerProcess();
  guestToken = await server.api.guestToken();
  network = installNetworkSwitch();
});
afterAll(async () => {
  cleanup();
  network?.uninstall();
  await server?.close();
});

/** Orders placed by the path so far, in order; what each state expects to have been announced. */
interface PlacedOrder { id: number; at: number; pendingBefore: number }
let placed: PlacedOrder[] = [];
const alertLog = () => window.__alertLog ?? [];
const announcedTimes = (id: number) => alertLog().filter((e) => e.orderId === id).length;
const feedStatus = () => screen.getByTestId('feed-status').getAttribute('data-status');
const pendingCount = () => Number(screen.getByTestId('count-pending').getAttribute('data-count'));

async function signInAndOpenCurrentOrders() {
  fireEvent.change(await screen.findByLabelText(/User name, e-mail or phone/), { target: { value: 'branchuser' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123qwe' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(window.location.pathname).toBe('/order'));
  navigateTo('/Currentorder');
  await screen.findByRole('heading', { name: 'Current Orders' });
  await waitFor(() => expect(screen.getByTestId('count-pending').getAttribute('data-count')).not.toBe(''));
}

async function expectLive() {
  await waitFor(() => expect(feedStatus()).toBe('live'), { timeout: 10_000 });
  expect(screen.queryByText(TEXT.offline)).toBeNull();
}

/** The toast and the sound come at once; the list takes the order in 2 s later, not before. */
async function expectAnnounced(order: PlacedOrder) {
  await screen.findByText(TEXT.newOrder(order.id), undefined, { timeout: 5000 });
  const toastAt = Date.now();
  expect(announcedTimes(order.id)).toBe(1);
  if (toastAt - order.at < TIMINGS.newOrderRefreshMs - 500) expect(pendingCount()).toBe(order.pendingBefore);
  await waitFor(() => expect(pendingCount()).toBe(order.pendingBefore + 1), { timeout: 15_000 });
  const refreshedAt = Date.now();
  expect(refreshedAt - toastAt).toBeGreaterThanOrEqual(TIMINGS.newOrderRefreshMs - 600);
  // No upper bound: a slow machine is not a failure (timings are measured in the browser test and the bench).
}

async function expectOffline() {
  await screen.findByText(TEXT.offline);
  await waitFor(() => expect(feedStatus()).toBe('reconnecting'));
}

describe('live order feed (model-based, real console, real server)', () => {
  const paths = model.getShortestPaths();

  it('covers every state of the model, and the real machine has the states they stand for', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual(['alerted', 'alertedAfterReconnect', 'backLive', 'caughtUp', 'live', 'missedWhileOffline', 'offline']);
    expect(Object.keys(liveOrderFeedMachine.config.states!)).toEqual(['online', 'reconnecting', 'refused']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      placed = [];
      window.__alertLog = [];
      if (!network.online) network.plugIn();
      renderApp(server, '/login');
      await signInAndOpenCurrentOrders();
      await p.test({
        states: {
          live: expectLive,
          backLive: async () => {
            await expectLive();
            // Nothing new was placed while away: nothing is announced.
            expect(alertLog()).toHaveLength(placed.length);
          },
          alerted: () => expectAnnounced(placed.at(-1)!),
          alertedAfterReconnect: () => expectAnnounced(placed.at(-1)!),
          offline: expectOffline,
          missedWhileOffline: async () => {
            await expectOffline();
            const { id } = placed.at(-1)!;
            expect(screen.queryByText(TEXT.newOrder(id))).toBeNull();
            expect(announcedTimes(id)).toBe(0);
          },
          caughtUp: async () => {
            await expectLive();
            const missed = placed.at(-1)!;
            await screen.findByText(TEXT.newOrder(missed.id), undefined, { timeout: 5000 });
            await waitFor(() => expect(pendingCount()).toBe(missed.pendingBefore + 1), { timeout: 5000 });
            // Announced once, and nothing seen before the drop is announced again.
            expect(alertLog().map((e) => e.orderId)).toEqual(placed.map((o) => o.id));
          },
        },
        events: {
          NEW_ORDER: async () => {
            const pendingBefore = pendingCount();
            const at = Date.now();
            placed.push({ id: await placeGuestOrder(server.api, { token: guestToken }), at, pendingBefore });
          },
          DROP: () => network.unplug(),
          ORDER_WHILE_OFFLINE: async () => {
            const pendingBefore = pendingCount();
            placed.push({ id: await placeGuestOrder(server.api, { token: guestToken }), at: Date.now(), pendingBefore });
          },
          RECONNECT: () => network.plugIn(),
        },
      });
    });
  }
});
