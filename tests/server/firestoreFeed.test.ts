import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { startTestServer, type TestServer } from '../support/server';
import { placeGuestOrder } from '../support/guestOrders';
import { liveOrderFeedMachine, type FeedScope, type LiveOrderFeedEvent } from '../../machines/liveOrderFeed';
import { listenToBranchOrders } from '../../src/console/orders/feed/firestoreFeed';

/**
 * The console's Firestore transport of the live order feed (src/console/orders/feed/firestoreFeed.ts)
 * against the real Firestore emulator, fed by the server's mirror of new orders: the feed machine
 * starts at the newest order, announces the branch's new orders only, once each. Skipped where
 * the emulator is not installed.
 */
const EMULATOR = process.env.FIRESTORE_EMULATOR_BIN ?? '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator';
const available = existsSync(EMULATOR);
if (!available) console.warn(`firestoreFeed.test.ts skipped: the Firestore emulator is not installed at ${EMULATOR}.`);

const PROJECT = 'demo-brewops-feed';
let emulator: ChildProcess | null = null;
let host = '';
let server: TestServer;

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
  s.on('error', reject);
});

describe.skipIf(!available)('live order feed over Firestore', () => {
  beforeAll(async () => {
    const port = await freePort();
    emulator = spawn(EMULATOR, ['start', '--host=127.0.0.1', `--port=${port}`], { detached: true, stdio: 'ignore' });
    host = `127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try { if ((await fetch(`http://${host}/`)).ok) break; } catch { /* not up yet */ }
      if (Date.now() > deadline) throw new Error('the Firestore emulator did not start in 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    server = await startTestServer({ firestore: { projectId: PROJECT, emulatorHost: host } });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    if (emulator?.pid) {
      try { process.kill(-emulator.pid, 'SIGTERM'); } catch { /* already gone */ }
    }
  });

  it('starts at the newest order and announces each new order of the branch once, even in a burst', async () => {
    const guest = await server.api.guestToken();
    const staff = await server.api.login('branchuser');
    const before = await placeGuestOrder(server.api, { token: guest, name: 'Before the feed' });

    const alerts: number[] = [];
    const feed = createActor(liveOrderFeedMachine.provide({
      actors: {
        subscribe: fromCallback<LiveOrderFeedEvent, FeedScope>(({ input, sendBack }) =>
          listenToBranchOrders({ projectId: PROJECT, emulatorHost: host }, input.branchId!, sendBack)),
        // As the console binds it, over the staff list's CreatedAfterId (here through REST).
        catchUp: fromPromise(async ({ input }) => {
          const query = input.afterId === null
            ? { SkipCount: 0, MaxResultCount: 1, Sorting: 'id desc', BranchId: input.scope.branchId }
            : { SkipCount: 0, MaxResultCount: 100, Sorting: 'id asc', BranchId: input.scope.branchId, CreatedAfterId: input.afterId };
          const res = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: staff, query });
          const ids = (res.body.result.data as { id: number }[]).map((o) => o.id);
          return input.afterId === null ? { orderIds: [], latestId: ids[0] ?? 0 } : { orderIds: ids, latestId: ids.at(-1) ?? input.afterId };
        }),
      },
      actions: { alertNewOrder: (_, { orderId }) => { alerts.push(orderId); } },
    }), { input: { branchId: 1 } });
    feed.start();
    try {
      await waitFor(feed, (s) => s.matches({ online: 'live' }), { timeout: 20_000 });
      expect(feed.getSnapshot().context.lastSeenId).toBe(before);

      const first = await placeGuestOrder(server.api, { token: guest, name: 'First' });
      const second = await placeGuestOrder(server.api, { token: guest, name: 'Second' });
      const deadline = Date.now() + 10_000;
      while (alerts.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      // Firestore shows the newest only, and a burst may skip one; the feed fetches what follows the
      // last seen order, so both are announced, once each, in order, and never the old one.
      expect(alerts).toEqual([first, second]);
    } finally {
      feed.stop();
    }
  }, 60_000);
});
