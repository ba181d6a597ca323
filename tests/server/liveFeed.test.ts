import { describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { pgOrderEvents } from '../../server/events/pgOrderEvents';
import { LISTEN_APPLICATION_NAME } from '../../server/db/listen';
import type { OrderEvent } from '../../server/events/orderEvents';
import { TIMINGS } from '../../domain/constants';
import { readSse } from '../support/feedStream';

/**
 * The live order feed: PostgreSQL LISTEN/NOTIFY behind the OrderEvents port, and the gateway's
 * `orderEvents` subscription over SSE, on a real HTTP server with the built mesh.
 */
const hasMesh = existsSync('.mesh/index.ts');
const server = useServer({ gateway: hasMesh });

const SUBSCRIPTION = 'subscription Feed($branchId: Int) { orderEvents(branchId: $branchId) { type orderId branchId brandId at } }';

/** Opens an SSE subscription and yields each `next` payload. */
async function subscribe(token: string | null, variables: Record<string, unknown> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: SUBSCRIPTION, variables }),
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const messages: any[] = [];
  /** When each heartbeat arrived (they are kept apart, so `next` answers order events only). */
  const heartbeats: number[] = [];
  const waiting: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  void readSse(res, (event, data) => {
    if (event === 'next' && data) {
      const message = JSON.parse(data);
      if (message.data?.orderEvents?.type === 'feed.heartbeat') heartbeats.push(Date.now());
      else { messages.push(message); waiting.wake?.(); }
    }
    if (event === 'complete') { ended = true; waiting.wake?.(); }
  }).then(() => {
    ended = true;
    waiting.wake?.();
  });
  return {
    async next(timeoutMs = 5000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      while (!messages.length && !ended && Date.now() < deadline) {
        await new Promise<void>((r) => { waiting.wake = r; setTimeout(r, 50); });
      }
      if (!messages.length) throw new Error(ended ? 'stream ended' : 'no event in time');
      return messages.shift();
    },
    heartbeats,
    close: () => controller.abort(),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 150));

describe('pgOrderEvents (LISTEN/NOTIFY)', () => {
  it('delivers a published event to every subscriber of the database, with its time', async () => {
    const other = await pgOrderEvents(server.database);
    const seen: OrderEvent[] = [];
    const stop = other.subscribe((e) => seen.push(e));
    await server.events.publish({ type: 'order.created', orderId: 4242, branchId: 1, brandId: 7 });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 30_000, interval: 25 });
    expect(seen[0]).toMatchObject({ type: 'order.created', orderId: 4242, branchId: 1, brandId: 7 });
    expect(Date.parse(seen[0].at)).not.toBeNaN();
    stop();
    await other.close();
  });

  it('listens again after PostgreSQL drops its LISTEN connection', async (ctx) => {
    if (server.database.kind !== 'postgres') ctx.skip();
    const { sql } = await import('drizzle-orm');
    const events = await pgOrderEvents(server.database);
    const seen: number[] = [];
    events.subscribe((e) => seen.push(e.orderId));
    await server.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${LISTEN_APPLICATION_NAME} and pid <> pg_backend_pid()`);
    for (let i = 0; i < 60 && !seen.includes(4343); i++) {
      await events.publish({ type: 'order.created', orderId: 4343, branchId: 1, brandId: 7 });
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen).toContain(4343);
    await events.close();
  });

  it('publishes order.changed when a status changes', async () => {
    const order = await insertOrder(server);
    const seen: OrderEvent[] = [];
    const stop = server.events.subscribe((e) => seen.push(e));
    const token = await server.api.login('branchuser');
    await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token, body: { orderId: order.id, status: 'accepted' } });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 30_000, interval: 25 });
    stop();
    expect(seen).toContainEqual(expect.objectContaining({ type: 'order.changed', orderId: order.id, branchId: 1, brandId: 7 }));
  });
});

describe.skipIf(!hasMesh)('GraphQL subscription orderEvents over SSE', () => {
  it('streams the branch user only the orders of their branch', async () => {
    const token = await server.api.login('branchuser');
    const feed = await subscribe(token);
    await settle();
    const outside = await insertOrder(server, { brandId: 8 });
    const inside = await insertOrder(server);
    await server.events.publish({ type: 'order.created', orderId: outside.id, branchId: outside.branchId, brandId: 8 });
    await server.events.publish({ type: 'order.created', orderId: inside.id, branchId: 1, brandId: 7 });
    const first = await feed.next();
    expect(first.data.orderEvents).toMatchObject({ type: 'order.created', orderId: inside.id, branchId: 1, brandId: 7 });
    // a status change made over REST arrives too
    await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token, body: { orderId: inside.id, status: 'accepted' } });
    expect((await feed.next()).data.orderEvents).toMatchObject({ type: 'order.changed', orderId: inside.id });
    feed.close();
  });

  it('gives the company admin their company only, and the admin everything', async () => {
    const company = await subscribe(await server.api.login('companyadmin'));
    const admin = await subscribe(await server.api.login('admin'));
    await settle();
    await server.events.publish({ type: 'order.created', orderId: 900001, branchId: 2, brandId: 8 });
    await server.events.publish({ type: 'order.created', orderId: 900002, branchId: 1, brandId: 7 });
    expect((await company.next()).data.orderEvents.orderId).toBe(900002);
    expect((await admin.next()).data.orderEvents.orderId).toBe(900001);
    expect((await admin.next()).data.orderEvents.orderId).toBe(900002);
    company.close();
    admin.close();
  });

  it('narrows to one branch when asked', async () => {
    const feed = await subscribe(await server.api.login('admin'), { branchId: 3 });
    await settle();
    await server.events.publish({ type: 'order.created', orderId: 900003, branchId: 2, brandId: 8 });
    await server.events.publish({ type: 'order.created', orderId: 900004, branchId: 3, brandId: 8 });
    expect((await feed.next()).data.orderEvents.orderId).toBe(900004);
    feed.close();
  });

  it.each([
    ['no token', null, 'UNAUTHENTICATED'],
    ['a customer', 'customer', 'FORBIDDEN'],
  ])('refuses %s', async (_what, user, code) => {
    const token = user ? await server.api.login(user) : null;
    const feed = await subscribe(token);
    const message = await feed.next();
    expect(message.errors?.[0]?.extensions?.code).toBe(code);
    expect(message.data ?? null).toBeNull();
    feed.close();
  });

  it('refuses a branch user asking for another branch', async () => {
    const feed = await subscribe(await server.api.login('branchuser'), { branchId: 2 });
    const message = await feed.next();
    expect(message.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    feed.close();
  });

  it('sends every subscriber a heartbeat every few seconds, whatever their scope (issue 11)', async () => {
    const feed = await subscribe(await server.api.login('branchuser'));
    const started = Date.now();
    while (feed.heartbeats.length < 3 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
    feed.close();
    expect(feed.heartbeats.length).toBe(3);
    const gaps = feed.heartbeats.slice(1).map((t, i) => t - feed.heartbeats[i]);
    console.log(`heartbeat gaps: ${gaps.join(', ')} ms (every ${TIMINGS.feedHeartbeatMs} ms)`);
    // Well inside the console's silence limit, even on a busy machine.
    for (const gap of gaps) expect(gap).toBeLessThan(TIMINGS.feedSilenceMs);
  });
});
