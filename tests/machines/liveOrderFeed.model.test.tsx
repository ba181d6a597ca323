import { afterAll, beforeAll, expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { describeModel } from '../support/describeModel';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { installNetworkSwitch } from '../support/networkSwitch';
import { placeGuestOrder } from '../support/guestOrders';
import { liveOrderFeedMachine, type CatchUpResult } from '../../machines/liveOrderFeed';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * The live order feed as a branch user lives it, on /Currentorder, against a real server process,
 * generated from the real feed machine (machines/liveOrderFeed.ts). The model's events are what the
 * feed's actors meet, each made to happen for real: the subscription connecting (the network
 * cable plugged back in, once the first connection is made), a new order on the subscription (a
 * guest places one), the connection dropping (the cable is pulled: the gateway stream breaks, the
 * browser says offline), the wait before a retry, and the catch-up's answer (with an order placed
 * while offline, when the model's answer names one). Each state checks what the user sees and
 * hears: the toast, the alert sound being played, the list refreshing 2 s later, the offline
 * banner, the feed's status.
 */
type Feed = SnapshotFrom<typeof liveOrderFeedMachine>;
const LATEST = 50;
const liveFeedModel = {
  machine: liveOrderFeedMachine,
  input: { branchId: 1 },
  events: (s: Feed) => [
    { type: 'feed.order', orderId: LATEST + 1 + s.context.announced.length, change: 'created' },
    { type: 'feed.dropped', reason: 'The connection dropped.' },
  ],
  answers: {
    // The first catch-up only marks where the feed starts; after a drop it names what was missed, or nothing.
    catchUp: {
      done: (s: Feed) => {
        const last = s.context.lastSeenId ?? LATEST;
        return s.context.wasLive ? [{ orderIds: [], latestId: last }, { orderIds: [last + 1], latestId: last + 1 }] : [{ orderIds: [], latestId: LATEST }];
      },
    },
  },
  // Heartbeats and pokes are other transports' (this one sends neither); refusals need another role.
  // The subscription connects when the machine is connecting; orders and drops come while it is live.
  filterEvents: (s: Feed, e: { type: string }) => {
    if (e.type === 'feed.connected') return s.matches({ online: 'connecting' });
    if (e.type === 'feed.order' || e.type === 'feed.dropped') return s.matches({ online: 'live' });
    return /^xstate\.(done\.actor\.\d|after\.retryDelay)/.test(e.type);
  },
  // Whether any order was announced; every transition is walked (a second order, a catch-up with or without a missed order).
  serialize: (s: Feed) => [s.value, Math.min(s.context.announced.length, 1), s.context.wasLive],
  cover: 'transitions',
  // A new order is the same transition whatever its id (the ids only keep the orders apart).
  transitionKey: (e: { type: string }) => (e.type === 'feed.order' ? e.type : JSON.stringify(e)),
  mustVisit: ['liveOrderFeed.online.connecting', 'liveOrderFeed.online.catchingUp', 'liveOrderFeed.online.live', 'liveOrderFeed.reconnecting'],
};

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
/** The announcements (the reminders for orders still waiting, every 15 s, are not new announcements). */
const announcements = () => alertLog().filter((e) => !e.repeat);
const announcedTimes = (id: number) => announcements().filter((e) => e.orderId === id).length;
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

type Step = { event: Record<string, unknown>; next?: { key: string; event: Record<string, unknown> } };
const placeOrder = async () => {
  const pendingBefore = pendingCount();
  const at = Date.now();
  placed.push({ id: await placeGuestOrder(server.api, { token: guestToken }), at, pendingBefore });
};

describeModel('live order feed (model-based on the real machine, real console, real server)', {
  ...liveFeedModel,
  minPaths: 3,
  start: async () => {
    resetBrowser();
    placed = [];
    window.__alertLog = [];
    if (!network.online) network.plugIn();
    renderApp(server, '/login');
    await signInAndOpenCurrentOrders();
  },
  // Each walk unmounts its view, so nothing it started outlives it (tests/support/leakWatch.ts); a walk
  // that failed half-way first lets the requests it left in flight come back.
  stop: async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); },
  steps: {
    // The first connection is the console's own; after a drop the cable goes back in (an order placed first when the catch-up is to find one).
    'feed.connected': async (_: void, step: Step) => {
      if (network.online) return;
      if ((step.next?.event.output as CatchUpResult | undefined)?.orderIds.length) await placeOrder();
      network.plugIn();
    },
    'catchUp.done': expectLive,
    // The toast and the sound come at once; the list takes the order in 2 s later, not before.
    'feed.order': async () => { await placeOrder(); await expectAnnounced(placed.at(-1)!); },
    'feed.dropped': () => network.unplug(),
    // The machine's own wait before it tries again; offline, it cannot connect.
    'after.retryDelay': () => {},
  },
  states: {
    'online.live': async (_: void, model: Feed) => {
      await expectLive();
      // What the model announced is what the console announced: each order once, in order, nothing seen before a drop again.
      const announced = model.context.announced.length;
      await waitFor(() => expect(announcements().map((e) => e.orderId)).toEqual(placed.slice(0, announced).map((o) => o.id)), { timeout: 5000 });
      expect(placed.length).toBe(announced);
    },
    reconnecting: async (_: void, model: Feed) => {
      await expectOffline();
      // Nothing placed while away is announced before the feed is back.
      expect(announcements()).toHaveLength(model.context.announced.length);
    },
  },
  broken: [{
    // A feed that announces nothing it catches up on: the model says nothing was missed, the console announces the missed order.
    name: 'a feed machine that forgets what it missed while offline',
    spec: {
      answers: { catchUp: { done: (s: Feed) => [{ orderIds: [], latestId: (s.context.lastSeenId ?? LATEST) + (s.context.wasLive ? 1 : 0) }] } },
      steps: {
        'feed.connected': async () => { if (!network.online) { await placeOrder(); network.plugIn(); } },
        'catchUp.done': expectLive, 'feed.order': placeOrder, 'feed.dropped': () => network.unplug(), 'after.retryDelay': () => {},
      },
    },
    pick: (p: { steps: { event: { type: string } }[] }) => p.steps.some((s) => s.event.type === 'feed.dropped'),
    failsWith: /expected|Unable to find/,
  }],
} as never);
