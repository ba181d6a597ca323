import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { createFetchApi } from '../support/fetchApi';
import { openOrderFeed } from '../support/feedStream';
import { guestOrderBody } from '../support/guestOrders';
import { freshPostgresDatabase } from '../support/pgDatabase';
import { killLeftovers, until } from '../support/mainProcess';
import { hasNginx, startCluster, type Cluster } from '../support/cluster';
import { startLocalS3, type LocalS3 } from '../support/localS3';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';

/**
 * Issue 26 "Shown in CI": 3 server processes (app/main.ts, gateway on) started at the same moment on an
 * empty PostgreSQL database, behind nginx with deploy/nginx.conf, uploads in an S3-compatible bucket.
 * 1,000 orders go through nginx while one process is killed (kill -9) and started again.
 * Run by .ci/run (`vitest run --project scale`); not part of `npm test`.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const hasMesh = existsSync('.mesh/index.ts');
const APP = '/api/services/app';
const ORDERS = 1000;
const CONCURRENCY = 24;
const KILL_AT = 300;
const METRICS_TOKEN = 'scale-metrics';

/** The live-feed subscriptions open on process i (its /metrics): nginx decides where a console lands. */
async function subscribersOn(i: number) {
  const text = await (await fetch(`${cluster.urls[i]}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^brewops_live_feed_subscribers (\d+)/m.exec(text)?.[1] ?? 0);
}

const skipWhy = !pgUrl ? 'TEST_DATABASE_URL is not set' : !hasNginx ? 'nginx is not installed (/usr/sbin/nginx)' : !hasMesh ? 'no build (.mesh): run npm run build' : '';
if (skipWhy) console.warn(`scale test skipped: ${skipWhy}`);

let cluster: Cluster;
let s3: LocalS3;
let pg: import('pg').Client;
const q = async <T = any>(text: string, values: unknown[] = []) => (await pg.query(text, values)).rows as T[];

describe.skipIf(!!skipWhy)('3 processes behind nginx on one PostgreSQL', () => {
  beforeAll(async () => {
    const databaseUrl = await freshPostgresDatabase(pgUrl!);
    s3 = await startLocalS3();
    const t0 = Date.now();
    cluster = await startCluster({ processes: 3, databaseUrl, env: { ...s3.env, METRICS_TOKEN } });
    console.log(`3 processes and nginx up in ${Date.now() - t0} ms`);
    const { default: Pg } = await import('pg');
    pg = new Pg.Client({ connectionString: databaseUrl });
    await pg.connect();
  }, 300_000);
  afterAll(async () => {
    await pg?.end();
    await cluster?.stop();
    await s3?.close();
    killLeftovers();
  }, 120_000);

  it('started together on an empty database: migrated and seeded once', async () => {
    expect(await q('select count(*)::int as n from users where user_name = $1', ['admin'])).toEqual([{ n: 1 }]);
    expect(await q('select count(*)::int as n from branches')).toEqual([{ n: 3 }]);
    for (const url of cluster.urls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });

  it('the per-client limits see the client\'s address, not one it sends in X-Forwarded-For', async () => {
    const res = await fetch(`${cluster.url}/api/TokenAuth/Authenticate`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ userNameOrEmailAddress: 'customer', password: 'wrong-password' }),
    });
    expect(res.status).not.toBe(200);
    expect((await q(`select key from rate_limits where key like 'login:client:%'`)).map((r) => r.key)).toEqual(['login:client:127.0.0.1']);
  });

  it('1,000 orders through nginx with a kill -9 and restart: each acknowledged once, each console got its branches\' orders once, late ones rejected once', async () => {
    const api = createFetchApi(cluster.url);
    const admin = await api.login('admin');
    // Every branch open all day: the demo's hours would make the test depend on the time of day.
    await q(`update branches set open_time = '00:00', close_time = '23:59'`);
    const created = await api.post(`${APP}/AdminUserManagement/CreateUser`, {
      token: admin, body: { userName: 'branch2user', fullName: 'Branch Two', password: 'secret1', role: 'BRANCH_USER', branchId: 2 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const productOf = new Map<number, number>();
    productOf.set(7, 1);
    const [dune] = await q(`select p.id from products p where p.brand_id = 8
      and not exists (select 1 from option_groups g where g.product_id = p.id and g.is_required) order by p.id limit 1`);
    productOf.set(8, dune.id);
    const [{ max: before }] = await q('select coalesce(max(id), 0)::int as max from orders');

    // Consoles: through nginx, reconnecting after their last event id whenever their stream ends.
    const consoles = await Promise.all([
      { user: 'branchuser', password: '123qwe', branches: [1] },
      { user: 'branch2user', password: 'secret1', branches: [2] },
      { user: 'brandmanager', password: '123qwe', branches: [1] },
    ].map(async (c) => ({ ...c, token: await api.login(c.user, c.password), events: [] as any[], reconnects: 0 })));
    let listening = true;
    const feeds = consoles.map(async (c) => {
      let after: string | undefined;
      while (listening) {
        try {
          const feed = await openOrderFeed(cluster.url, c.token, after ? { after } : {});
          while (listening && !feed.ended) await new Promise((r) => setTimeout(r, 50));
          feed.close();
          c.events.push(...feed.events);
          after = feed.lastId() ?? after;
          if (listening) c.reconnects++;
        } catch { await new Promise((r) => setTimeout(r, 200)); }
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    // The process killed is one holding a console's stream (the one holding most), so that console must resume elsewhere.
    const held = await Promise.all(cluster.urls.map((_, i) => subscribersOn(i)));
    expect(held.reduce((a, b) => a + b)).toBe(consoles.length);
    const victim = held.indexOf(Math.max(...held));

    // The load: guests, the shop's request with an Idempotency-Key, retried with the same key on a failure (as the shop does).
    const guest = await api.guestToken();
    const acked = new Map<string, { orderId: number; branchId: number }>();
    const plan = Array.from({ length: ORDERS }, (_, i) => ({ key: randomUUID(), branchId: [1, 2, 3][i % 3] }));
    let next = 0;
    let killed: Promise<void> | null = null;
    let retries = 0;
    const worker = async () => {
      while (next < plan.length) {
        const { key, branchId } = plan[next++];
        const brandId = branchId === 1 ? 7 : 8;
        const body = guestOrderBody({ name: 'Load Guest', brandId, branchId, productId: productOf.get(brandId) });
        for (let attempt = 0; ; attempt++) {
          let status = 0;
          let answer: any;
          try {
            const res = await api.post(`${APP}/Store/SaveNewOrderVS1`, { token: guest, body, headers: { 'idempotency-key': key } });
            status = res.status;
            answer = res.body;
          } catch { /* the connection failed */ }
          if (status === 200) { acked.set(key, { orderId: answer.result.orderId, branchId }); break; }
          if (status && status !== 502 && status !== 503 && status !== 504) throw new Error(`order refused: ${status} ${JSON.stringify(answer)}`);
          if (attempt > 40) throw new Error(`order ${key} never acknowledged`);
          retries++;
          await new Promise((r) => setTimeout(r, 250));
        }
        if (acked.size === KILL_AT && !killed) killed = cluster.kill(victim).then(() => cluster.restart(victim));
      }
    };
    const t0 = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await killed;
    console.log(`${ORDERS} orders through nginx in ${Date.now() - t0} ms (${retries} retries after the kill)`);
    expect(killed).not.toBeNull();

    // Every acknowledged order exists once, under its key; no other order was written.
    const rows = await q<{ id: number; key: string; branch_id: number }>('select id, idempotency_key as key, branch_id from orders where id > $1', [before]);
    expect(acked.size).toBe(ORDERS);
    expect(rows).toHaveLength(ORDERS);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const [key, { orderId, branchId }] of acked) expect(byKey.get(key)).toEqual({ id: orderId, key, branch_id: branchId });

    // Each acknowledged order has its one order.created event (what the consoles are sent). An order written by the
    // killed process just before it died, and acknowledged to the retry by another process from its Idempotency-Key,
    // has none when the process died between the order's commit and the event's (saveOrder publishes after it).
    const createdEvents = await q<{ order_id: number; n: number }>(`select order_id, count(*)::int as n from order_events where order_id > $1 and type = 'order.created' group by order_id`, [before]);
    const eventCount = new Map(createdEvents.map((e) => [e.order_id, e.n]));
    expect.soft(rows.filter((r) => eventCount.get(r.id) !== 1).map((r) => `order ${r.id}: ${eventCount.get(r.id) ?? 0} order.created events`)).toEqual([]);

    // Each console got every order of its branch, once.
    const expected = (branches: number[]) => rows.filter((r) => branches.includes(r.branch_id)).map((r) => r.id).sort((a, b) => a - b);
    await until(async () => consoles.every((c) => {
      const live = new Set([...c.events].map((e) => e.orderId));
      return expected(c.branches).every((id) => live.has(id));
    }), 1000).catch(() => false);
    await new Promise((r) => setTimeout(r, 3000));
    listening = false;
    await Promise.all(feeds);
    for (const c of consoles) {
      const createdIds = c.events.filter((e) => e.type === 'order.created' && e.orderId > before).map((e) => e.orderId as number);
      expect([...createdIds].sort((a, b) => a - b), `${c.user}: ${c.reconnects} reconnections`).toEqual(expected(c.branches));
      expect(c.events.filter((e) => e.errors || e.type === 'feed.reset')).toEqual([]);
    }
    expect(consoles.reduce((n, c) => n + c.reconnects, 0)).toBeGreaterThan(0);

    // Branch 3's orders, left unaccepted, are rejected by the deadline sweep (every 5 s in each of the 3
    // processes) of whichever process comes first: once each. Its shortest deadline is 3 minutes, so the
    // orders are made 3 minutes older, as the clock would; the sweep itself is the product's.
    const late = expected([3]);
    await q(`update branches set acceptance_deadline_minutes = 3 where id = 3`);
    await q(`update orders set created_at = created_at - interval '3 minutes' where id > $1 and branch_id = 3`, [before]);
    expect(await until(async () => (await q(`select count(*)::int as n from orders where id > $1 and branch_id = 3 and status = 'pending'`, [before]))[0].n === 0, 150_000)).toBe(true);
    const rejected = await q(`select id, status, status_reason as reason from orders where id > $1 and branch_id = 3 order by id`, [before]);
    expect(rejected.every((r) => r.status === 'rejected' && r.reason === NOT_ACCEPTED_IN_TIME)).toBe(true);
    const changes = await q(`select order_id, count(*)::int as n from order_events where order_id > $1 and branch_id = 3 and type = 'order.changed' group by order_id`, [before]);
    expect(changes.map((c) => c.order_id).sort((a, b) => a - b)).toEqual(late);
    expect(changes.every((c) => c.n === 1)).toBe(true);
  }, 420_000);

  it('an image uploaded through one process is served by the others (S3)', async () => {
    const token = await createFetchApi(cluster.urls[0]).login('admin');
    const form = new FormData();
    const jpeg = await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 10, g: 120, b: 60 } } }).jpeg().toBuffer();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'logo.jpg');
    const res = await fetch(`${cluster.urls[0]}${APP}/Files/UploadCompanyLogoImage`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const { url } = ((await res.json()) as { result: { url: string } }).result;
    const fromFirst = Buffer.from(await (await fetch(`${cluster.urls[0]}${url}`)).arrayBuffer());
    for (const base of cluster.urls.slice(1)) {
      const other = await fetch(`${base}${url}`);
      expect(other.status).toBe(200);
      expect(Buffer.from(await other.arrayBuffer()).equals(fromFirst)).toBe(true);
    }
  });

  it('a price changed through one process is charged by every process on its next order', async () => {
    const manager = await createFetchApi(cluster.urls[0]).login('brandmanager');
    const changed = await createFetchApi(cluster.urls[0]).put(`${APP}/Products/UpdateProduct`, { token: manager, body: { id: 1, price: 4.25 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    for (const base of cluster.urls) {
      const api = createFetchApi(base);
      const res = await api.post(`${APP}/Store/SaveNewOrderVS1`, {
        token: await api.guestToken(), headers: { 'idempotency-key': randomUUID() },
        body: guestOrderBody({ name: 'Price Guest' }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [item] = await q('select unit_price::numeric::float as price from order_items where order_id = $1', [res.body.result.orderId]);
      expect(item.price, base).toBe(4.25);
    }
  });

  it('a password changed through one process ends the user\'s sessions on every process', async () => {
    const apis = cluster.urls.map(createFetchApi);
    const admin = await apis[0].login('admin');
    const made = await apis[0].post(`${APP}/AdminUserManagement/CreateUser`, {
      token: admin, body: { userName: 'scalepw', fullName: 'Scale Password', password: 'secret1', role: 'BRANCH_USER', branchId: 1 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.id as number;
    const tokens = await Promise.all(apis.map((api) => api.login('scalepw', 'secret1')));
    const me = (i: number) => apis[i].get(`${APP}/User/Get`, { token: tokens[i], query: { Id: id } });
    for (let i = 0; i < apis.length; i++) expect((await me(i)).status).toBe(200);
    expect((await apis[2].put(`${APP}/AdminUserManagement/UpdateUser`, { token: await apis[2].login('admin'), body: { id, password: 'secret2' } })).status).toBe(200);
    for (let i = 0; i < apis.length; i++) expect(await until(async () => (await me(i)).status === 401, 3000), cluster.urls[i]).toBe(true);
  });
});
