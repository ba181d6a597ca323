import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { useServer } from '../support/harness';
import { placeGuestOrder } from '../support/guestOrders';
import { sendOrderEvent } from '../support/orders';
import { openOrderFeed } from '../support/feedStream';
import { createFetchApi } from '../support/fetchApi';
import { freshPostgresDatabase } from '../support/pgDatabase';
import { killLeftovers, startMain, tempDataDir, exitOf } from '../support/mainProcess';
import { pgOrderEvents } from '../../server/events/pgOrderEvents';
import { rowsOf } from '../../server/db/client';
import type { OrderEvent } from '../../server/events/orderEvents';

/**
 * Issue 26, a live feed that resumes: order events are rows of `order_events`, NOTIFY only wakes
 * the processes, and a subscriber that reconnects, to any process, resumes after its last event id
 * and gets what it missed exactly once.
 */
const hasMesh = existsSync('.mesh/index.ts');
const pgUrl = process.env.TEST_DATABASE_URL;
const server = useServer({ gateway: hasMesh });
const createdOf = (events: any[]) => events.filter((e) => e.type === 'order.created').map((e) => e.orderId);
const quiet = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasMesh)('a subscriber that reconnects with its last event id', () => {
  it('gets the N orders placed while it was away, each once, then the live ones', async () => {
    const token = await server.api.login('branchuser');
    const first = await openOrderFeed(server.url, token);
    await quiet(300);
    const seen = await placeGuestOrder(server.api);
    await first.until((e) => createdOf(e).includes(seen));
    const last = first.lastId()!;
    expect(last).toMatch(/^\d+$/);
    first.close();

    const missed: number[] = [];
    for (let i = 0; i < 4; i++) missed.push(await placeGuestOrder(server.api));
    // Outside the branch user's scope: not replayed to them either.
    await server.events.publish({ type: 'order.created', orderId: 990001, branchId: 2, brandId: 8 });

    const again = await openOrderFeed(server.url, token, { after: last });
    await again.until((e) => missed.every((id) => createdOf(e).includes(id)));
    const live = await placeGuestOrder(server.api);
    await again.until((e) => createdOf(e).includes(live));
    await quiet();
    again.close();
    expect(createdOf(again.events)).toEqual([...missed, live]);
    expect(again.events.every((e) => e.branchId === 1)).toBe(true);
    // Ids increase: the next resume is after the last one.
    const ids = again.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number(last));

    // The same through the SSE Last-Event-ID header.
    const byHeader = await openOrderFeed(server.url, token, { lastEventId: last });
    await byHeader.until((e) => createdOf(e).length >= 5);
    await quiet(500);
    byHeader.close();
    expect(createdOf(byHeader.events)).toEqual([...missed, live]);
  }, 60_000);

  it('tells a subscriber whose id is older than the events kept to catch up from the lists (feed.reset)', async () => {
    const token = await server.api.login('admin');
    await server.events.publish({ type: 'order.changed', orderId: 990002, branchId: 1, brandId: 7 });
    await server.events.publish({ type: 'order.changed', orderId: 990003, branchId: 1, brandId: 7 });
    // As the retention would: the oldest event is gone.
    await server.database.db.execute(sql`delete from order_events where id = (select min(id) from order_events)`);
    const feed = await openOrderFeed(server.url, token, { after: 0 });
    await feed.until((e) => e.some((m) => m.type === 'feed.reset'));
    feed.close();
    expect(feed.events[0].type).toBe('feed.reset');
  }, 30_000);

  it('refuses a cursor that is not an event id with a 400', async () => {
    const feed = await openOrderFeed(server.url, await server.api.login('admin'), { after: 'yesterday' });
    await feed.until((e) => e.length > 0);
    feed.close();
    expect(feed.events[0].errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });
});

describe('the notification carries only the id', () => {
  it('an event bigger than NOTIFY\'s 8 KB still reaches every process', async () => {
    const other = await pgOrderEvents(server.database);
    const seen: OrderEvent[] = [];
    other.subscribe((e) => seen.push(e));
    const remarks = 'Extra hot, no sugar, please. '.repeat(400); // about 11 KB
    await server.events.publish({ type: 'order.changed', orderId: 4242, branchId: 1, brandId: 7, remarks } as never);
    await vi.waitFor(() => expect(seen.some((e) => e.orderId === 4242)).toBe(true), { timeout: 15_000, interval: 25 });
    expect((seen.find((e) => e.orderId === 4242) as unknown as { remarks: string }).remarks).toBe(remarks);
    await other.close();
  });
});

describe.skipIf(!pgUrl)('ids that commit out of order (PostgreSQL)', () => {
  it('an id still committing is waited for, not skipped: every event once, in id order', async () => {
    const other = await pgOrderEvents(server.database);
    const seen: number[] = [];
    other.subscribe((e) => seen.push(e.orderId));
    const pg = (await import('pg')).default;
    const slow = new pg.Client({ connectionString: (server.database.client as any).options.connectionString });
    await slow.connect();
    try {
      // A transaction draws id n and has not committed; id n + 1 commits and wakes everyone.
      await slow.query('begin');
      await slow.query(`insert into order_events (type, order_id, branch_id, brand_id) values ('order.created', 5001, 1, 7)`);
      await server.events.publish({ type: 'order.created', orderId: 5002, branchId: 1, brandId: 7 });
      await quiet(800);
      expect(seen).toEqual([]);
      await slow.query(`select pg_notify('order_events', '')`);
      await slow.query('commit');
      await vi.waitFor(() => expect(seen).toEqual([5001, 5002]), { timeout: 10_000, interval: 25 });
    } finally {
      await slow.end();
      await other.close();
    }
  });

  it('20 orders placed at once reach a subscriber each once, in id order', async () => {
    const other = await pgOrderEvents(server.database);
    const seen: OrderEvent[] = [];
    other.subscribe((e) => seen.push(e));
    const placed = await Promise.all(Array.from({ length: 20 }, () => placeGuestOrder(server.api)));
    await vi.waitFor(() => expect(seen.filter((e) => placed.includes(e.orderId))).toHaveLength(20), { timeout: 20_000, interval: 50 });
    await quiet(500);
    expect(seen.map((e) => e.orderId).sort()).toEqual([...placed].sort());
    expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort((a, b) => a - b));
    await other.close();
  }, 60_000);
});

describe.skipIf(!pgUrl || !hasMesh)('two processes on one PostgreSQL', () => {
  afterEach(killLeftovers);

  it('a console whose process is killed (kill -9) resumes on the other and misses nothing, sees nothing twice', async () => {
    const databaseUrl = await freshPostgresDatabase(pgUrl!);
    const env = { DATABASE_URL: databaseUrl, JWT_SECRET: 'test-secret-0123456789abcdef' };
    const a = await startMain({ ...env, DATA_DIR: tempDataDir() });
    const b = await startMain({ ...env, DATA_DIR: tempDataDir() });
    const apiA = createFetchApi(a.url);
    const apiB = createFetchApi(b.url);
    const token = await apiA.login('branchuser');
    const onA = await openOrderFeed(a.url, token);
    await quiet(500);
    const before = [await placeGuestOrder(apiA), await placeGuestOrder(apiB)];
    await onA.until((e) => before.every((id) => createdOf(e).includes(id)), 30_000);
    a.child.kill('SIGKILL');
    expect((await exitOf(a, 10_000)).signal).toBe('SIGKILL');
    await onA.until(() => onA.ended, 10_000);
    // Placed while the console has no connection (through the surviving process, as the load balancer would).
    const meanwhile: number[] = [];
    for (let i = 0; i < 5; i++) meanwhile.push(await placeGuestOrder(apiB));
    const onB = await openOrderFeed(b.url, token, { after: onA.lastId() });
    const after = await placeGuestOrder(apiB);
    await onB.until((e) => [...meanwhile, after].every((id) => createdOf(e).includes(id)), 30_000);
    await quiet();
    onB.close();
    expect(createdOf(onA.events)).toEqual(before);
    expect(createdOf(onB.events)).toEqual([...meanwhile, after]);
    b.child.kill('SIGTERM');
    await exitOf(b, 20_000);
  }, 240_000);
});

describe('an event is written with its change', () => {
  // A process killed between a change's commit and its announcement: nothing after the commit happens there.
  const dieAfterCommit = () => vi.spyOn(server.events, 'publish').mockRejectedValue(new Error('killed after the commit'));
  afterEach(() => { vi.restoreAllMocks(); });

  it('an order placed, and then accepted, by a process that never announces them reaches the other processes\' consoles', async () => {
    const other = await pgOrderEvents(server.database);
    const seen: OrderEvent[] = [];
    other.subscribe((e) => seen.push(e));
    const died = dieAfterCommit();
    const orderId = await placeGuestOrder(server.api);
    expect(died).toHaveBeenCalled();
    await vi.waitFor(() => expect(seen.filter((e) => e.orderId === orderId).map((e) => e.type)).toEqual(['order.created']), { timeout: 15_000, interval: 25 });

    const token = await server.api.login('branchuser');
    expect((await sendOrderEvent(server.api, 'order.accept', orderId, token)).status).toBe(200);
    await vi.waitFor(() => expect(seen.filter((e) => e.orderId === orderId).map((e) => e.type)).toEqual(['order.created', 'order.changed']), { timeout: 15_000, interval: 25 });
    // Exactly one row each: the change wrote it, nothing wrote it again.
    const rows = rowsOf<{ type: string }>(await server.database.db.execute(sql`select type from order_events where order_id = ${orderId} order by id`));
    expect(rows.map((r) => r.type)).toEqual(['order.created', 'order.changed']);
    await other.close();
  }, 60_000);
});
