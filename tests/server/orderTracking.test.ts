import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createClient, type ExecutionResult } from 'graphql-sse';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { GUEST_USER_ID, TIMINGS } from '../../domain/constants';

/**
 * The customer's tracker follows one order live (issue 11): `subscription orderTracking(orderId,
 * ohash)` through the gateway, read here with graphql-sse's own client in its distinct-connections
 * mode, the client the browser uses. A guest reads only the order whose ohash they hold: another
 * order's events never reach them, and a wrong ohash is refused as GetOrderDetail refuses it.
 */
const hasMesh = existsSync('.mesh/index.ts');
const server = useServer({ gateway: hasMesh });

const TRACKING = 'subscription Track($orderId: Int!, $ohash: String) { orderTracking(orderId: $orderId, ohash: $ohash) { type orderId branchId brandId at } }';
const ORDER_EVENTS = 'subscription Feed { orderEvents { type orderId } }';

type Result = ExecutionResult<Record<string, { type: string; orderId: number | null } | null>, unknown>;

/** One subscription through graphql-sse; collects what arrives, split into heartbeats and the rest. */
function follow(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const results: Result[] = [];
  const heartbeats: number[] = [];
  let connected = false;
  let ended: 'complete' | 'error' | null = null;
  const client = createClient({
    url: `${server.url}/graphql`,
    retryAttempts: 0,
    headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
  });
  const dispose = client.subscribe<Record<string, { type: string; orderId: number | null } | null>>({ query, variables }, {
    next: (r) => {
      const event = r.data && Object.values(r.data)[0];
      if (event?.type === 'feed.heartbeat') heartbeats.push(Date.now());
      else results.push(r);
    },
    error: () => { ended = 'error'; },
    complete: () => { ended = ended ?? 'complete'; },
  }, { connected: () => { connected = true; } });
  const until = async (done: () => boolean, timeoutMs = 10_000) => {
    const start = Date.now();
    while (!done() && Date.now() - start < timeoutMs) await new Promise((r) => setTimeout(r, 25));
    return done();
  };
  return {
    results, heartbeats,
    get connected() { return connected; },
    get ended() { return ended; },
    until,
    close: () => { dispose(); client.dispose(); },
  };
}

describe.skipIf(!hasMesh)('subscription orderTracking (graphql-sse, distinct connections)', () => {
  it('a guest holding the ohash hears their order change, and only their order; another guest order\'s holder hears nothing of it', async () => {
    const guest = await server.api.guestToken();
    const mine = await insertOrder(server, { userId: GUEST_USER_ID });
    const other = await insertOrder(server, { userId: GUEST_USER_ID });
    const me = follow(guest, TRACKING, { orderId: mine.id, ohash: mine.ohash });
    const them = follow(guest, TRACKING, { orderId: other.id, ohash: other.ohash });
    try {
      expect(await me.until(() => me.connected && them.connected)).toBe(true);
      // The branch accepts my order over REST: the change reaches my tracker through LISTEN/NOTIFY.
      const staff = await server.api.login('branchuser');
      const res = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: staff, body: { orderId: mine.id, status: 'accepted' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await server.events.publish({ type: 'order.created', orderId: mine.id + 1000, branchId: 1, brandId: 7 });
      expect(await me.until(() => me.results.length > 0)).toBe(true);
      expect(me.results[0].errors).toBeUndefined();
      expect(me.results[0].data?.orderTracking).toMatchObject({ type: 'order.changed', orderId: mine.id });
      // Both streams are alive (heartbeats), and the other one never saw my order nor the unrelated one.
      expect(await them.until(() => them.heartbeats.length >= 1, TIMINGS.feedSilenceMs * 2)).toBe(true);
      expect(them.results).toEqual([]);
      expect(me.results.map((r) => r.data?.orderTracking?.orderId)).toEqual([mine.id]);
    } finally {
      me.close();
      them.close();
    }
  });

  it('refuses a wrong ohash, another order\'s ohash, and a guest with no ohash: NOT_FOUND, no data, the stream ends', async () => {
    const guest = await server.api.guestToken();
    const order = await insertOrder(server, { userId: GUEST_USER_ID });
    const other = await insertOrder(server, { userId: GUEST_USER_ID });
    for (const ohash of ['not-the-hash', other.ohash, null]) {
      const f = follow(guest, TRACKING, { orderId: order.id, ohash });
      try {
        expect(await f.until(() => f.results.length > 0 && f.ended !== null)).toBe(true);
        expect(f.results[0].errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
        expect(f.results[0].data ?? null).toBeNull();
        expect(f.heartbeats).toEqual([]);
      } finally {
        f.close();
      }
    }
  });

  it('lets a signed-in customer follow their own order without the ohash, and no one else\'s', async () => {
    const customer = await server.api.login('customer');
    const own = await insertOrder(server); // customer 5, the demo customer
    const foreign = await insertOrder(server, { userId: GUEST_USER_ID });
    const mine = follow(customer, TRACKING, { orderId: own.id });
    const notMine = follow(customer, TRACKING, { orderId: foreign.id });
    try {
      expect(await mine.until(() => mine.connected)).toBe(true);
      await server.events.publish({ type: 'order.changed', orderId: own.id, branchId: 1, brandId: 7 });
      expect(await mine.until(() => mine.results.length > 0)).toBe(true);
      expect(mine.results[0].data?.orderTracking).toMatchObject({ orderId: own.id });
      expect(await notMine.until(() => notMine.results.length > 0)).toBe(true);
      expect(notMine.results[0].errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    } finally {
      mine.close();
      notMine.close();
    }
  });

  it('lets whoever holds the ohash follow that order without a token (the link opened in another browser), and only that order', async () => {
    const order = await insertOrder(server); // a registered customer's order: the link holder is not its owner
    const other = await insertOrder(server);
    const holder = follow(null, TRACKING, { orderId: order.id, ohash: order.ohash });
    try {
      expect(await holder.until(() => holder.connected)).toBe(true);
      await server.events.publish({ type: 'order.changed', orderId: other.id, branchId: 1, brandId: 7 });
      const staff = await server.api.login('branchuser');
      for (const status of ['accepted', 'ready']) {
        const res = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: staff, body: { orderId: order.id, status } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect(await holder.until(() => holder.results.length >= 2)).toBe(true);
      expect(holder.results.map((r) => [r.errors, r.data?.orderTracking?.orderId])).toEqual([[undefined, order.id], [undefined, order.id]]);
    } finally {
      holder.close();
    }
  });

  it.each([
    ['no token and no ohash', null, null, 'UNAUTHENTICATED'],
    ['no token and a wrong ohash (as an unknown order)', null, 'not-the-hash', 'UNAUTHENTICATED'],
    ['a staff user', 'branchuser', undefined, 'FORBIDDEN'],
  ])('refuses %s', async (_what, user, ohash, code) => {
    const order = await insertOrder(server, { userId: GUEST_USER_ID });
    const f = follow(user ? await server.api.login(user) : null, TRACKING, { orderId: order.id, ohash: ohash === undefined ? order.ohash : ohash });
    try {
      expect(await f.until(() => f.results.length > 0)).toBe(true);
      expect(f.results[0].errors?.[0]?.extensions?.code).toBe(code);
    } finally {
      f.close();
    }
  });

  it('the staff feed speaks the same protocol: graphql-sse connects, hears an order and the heartbeat', async () => {
    const f = follow(await server.api.login('branchuser'), ORDER_EVENTS);
    try {
      expect(await f.until(() => f.connected)).toBe(true);
      await server.events.publish({ type: 'order.created', orderId: 990001, branchId: 1, brandId: 7 });
      expect(await f.until(() => f.results.length > 0)).toBe(true);
      expect(f.results[0].data?.orderEvents).toMatchObject({ type: 'order.created', orderId: 990001 });
      expect(await f.until(() => f.heartbeats.length >= 1, TIMINGS.feedSilenceMs * 2)).toBe(true);
    } finally {
      f.close();
    }
  });
});
