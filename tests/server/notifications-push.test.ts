import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createECDH, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import webpush from 'web-push';
import { countRows, type TestServer } from '../support/server';
import { useServer } from '../support/harness';
import { NOTIFICATIONS_API as API, newCustomers } from '../support/notifications';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/client';
import { webPushSender } from '../../server/notify';

/**
 * Notifications' web push (docs/decisions.md "Notifications"), through a stand-in push service,
 * pruning subscriptions that are gone. Requests, approvals and the inbox: notifications.test.ts.
 */
/** A stand-in push service: answers by path (/ok 201, /gone 410, /missing 404, /broken 500) and keeps what it was sent. */
function standInPushService() {
  const received: { path: string; headers: IncomingMessage['headers']; bytes: number }[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, bytes: Buffer.concat(chunks).length });
      const status = req.url!.startsWith('/gone') ? 410 : req.url!.startsWith('/missing') ? 404 : req.url!.startsWith('/broken') ? 500 : 201;
      res.writeHead(status).end();
    });
  });
  return { http, received };
}
const browserKeys = () => ({
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
});

describe('web push (VAPID) through a stand-in push service', () => {
  let stand: ReturnType<typeof standInPushService>;
  let base: string;
  const pdb = () => pushServer.database.db as unknown as Db;
  const pending = async () => rowsOf<{ n: number }>(await pdb().execute(sql`select count(*)::int as n from customer_notifications where push_pending`))[0].n;
  async function drained(timeoutMs = 120_000) {
    const t0 = Date.now();
    while (Number(await pending()) > 0) {
      if (Date.now() - t0 > timeoutMs) throw new Error('push rows still pending');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  beforeAll(async () => {
    stand = standInPushService();
    await new Promise<void>((r) => stand.http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(stand.http.address() as { port: number }).port}`;
  }, 120_000);
  const pushServer = useServer(() => ({ push: webPushSender({ ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@brewops.test', timeoutMs: 5_000, retry: { baseDelayMs: 10 } }) }));
  afterAll(async () => { stand?.http.close(); });

  it('pushes to live subscriptions, prunes those answering 404 or 410, keeps one that failed otherwise', async () => {
    const [alice, bob, carol] = await newCustomers(pushServer, 3, 7);
    const group = await (async () => {
      const [g] = await pdb().insert(t.customerGroups).values({ brandId: 7, name: 'Push group' }).returning();
      await pdb().insert(t.customerGroupMembers).values([alice, bob, carol].map((userId) => ({ groupId: g.id, userId })));
      return g.id;
    })();
    await pdb().insert(t.pushSubscriptions).values([
      { userId: alice, endpoint: `${base}/ok/alice`, ...browserKeys() },
      { userId: alice, endpoint: `${base}/gone/alice-old-browser`, ...browserKeys() },
      { userId: bob, endpoint: `${base}/missing/bob`, ...browserKeys() },
      { userId: bob, endpoint: `${base}/broken/bob`, ...browserKeys() },
    ]);
    const key = await pushServer.api.get(`${API}/GetPushPublicKey`);
    expect(key.body.result.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);

    const admin = await pushServer.api.login('admin');
    const sent = await pushServer.api.post(`${API}/SendWebAdminNotifications`, { token: admin, body: { brandId: 7, groupId: group, title: 'Push', text: 'To your phone.' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result.recipients).toBe(3);
    await drained();
    const paths = stand.received.map((r) => r.path).sort();
    expect([...new Set(paths)]).toEqual(['/broken/bob', '/gone/alice-old-browser', '/missing/bob', '/ok/alice']);
    // A 500 is tried 5 times in all (issue 27); a 404 or 410 once, and the subscription deleted.
    expect(paths.filter((p) => p === '/broken/bob')).toHaveLength(5);
    expect(paths.filter((p) => p !== '/broken/bob')).toHaveLength(3);
    const ok = stand.received.find((r) => r.path === '/ok/alice')!;
    expect(ok.headers['content-encoding']).toBe('aes128gcm');
    expect(ok.headers.authorization).toMatch(/^vapid t=.+, k=.+/);
    expect(ok.bytes).toBeGreaterThan(0);
    const left = (await pdb().select({ endpoint: t.pushSubscriptions.endpoint }).from(t.pushSubscriptions)).map((s) => s.endpoint.slice(base.length)).sort();
    expect(left).toEqual(['/broken/bob', '/ok/alice']);
    // Carol has no subscription: her row was never queued, and every inbox row is there.
    expect(await countRows(pushServer, 'customer_notifications')).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('a customer subscribes with https; the same endpoint moves to whoever subscribes it last', async () => {
    const customer = await pushServer.api.login('customer');
    const sub = { endpoint: 'https://push.example.test/send/one', keys: browserKeys() };
    const res = await pushServer.api.post(`${API}/SubscribeToPush`, { token: customer, body: sub });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await pushServer.api.post(`${API}/SubscribeToPush`, { token: customer, body: sub })).status).toBe(200);
    const rows = await pdb().select().from(t.pushSubscriptions).where(eq(t.pushSubscriptions.endpoint, sub.endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0].userId).toBe(5);
    await pdb().delete(t.pushSubscriptions).where(eq(t.pushSubscriptions.endpoint, sub.endpoint));
  });

  // Every one of the 10,000 gets an inbox row; BULK_PUSH of them (default 1,000, to keep the suite fast) have a subscription.
  // BULK_PUSH=10000 measures the full push (docs/decisions.md "Notifications").
  it('10,000 customers: the send answers once the inbox rows are written; pushes follow in the background', async () => {
    const n = 10_000, pushed = Number(process.env.BULK_PUSH ?? 1_000), every = Math.max(1, Math.round(n / pushed));
    const t0 = Date.now();
    const [{ first }] = rowsOf<{ first: number }>(await pdb().execute(sql`
      with u as (insert into users (user_name, full_name, role, phone_number, password_hash)
                 select 'bulk' || g, 'Bulk ' || g, 'CUSTOMER', '+9657' || lpad(g::text, 7, '0'), '!' from generate_series(1, ${n}) g returning id),
           w as (insert into customer_wallets (user_id, brand_id) select id, 7 from u returning user_id),
           s as (insert into push_subscriptions (user_id, endpoint, p256dh, auth)
                 select id, ${base} || '/ok/bulk/' || id, ${browserKeys().p256dh}, ${browserKeys().auth} from u where id % ${every} = 0 returning id)
      select min(u.id)::int as first from u`));
    expect(first).toBeGreaterThan(0);
    const [g] = await pdb().insert(t.customerGroups).values({ brandId: 7, name: 'Ten thousand' }).returning();
    await pdb().execute(sql`insert into customer_group_members (group_id, user_id) select ${g.id}, id from users where user_name like 'bulk%'`);
    console.log(`seeded ${n} customers with subscriptions in ${Date.now() - t0} ms`);
    stand.received.length = 0;

    const admin = await pushServer.api.login('admin');
    const manager = await pushServer.api.login('brandmanager');
    const asked = await pushServer.api.post(`${API}/NotificationsRequests`, { token: manager, body: { brandId: 7, groupId: g.id, title: 'Big', text: 'Ten thousand inboxes.' } });
    const t1 = Date.now();
    const sent = await pushServer.api.post(`${API}/SendWebAdminNotifications`, { token: admin, body: { notificationsRequestId: asked.body.result.id } });
    const answerMs = Date.now() - t1;
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result.recipients).toBe(n);
    expect(await inboxOf2(pushServer, sent.body.result.id)).toBe(n);
    await drained(300_000);
    const pushMs = Date.now() - t1;
    const subscribed = rowsOf<{ n: number }>(await pdb().execute(sql`select count(*)::int as n from push_subscriptions where endpoint like ${base + '/ok/bulk/%'}`))[0].n;
    expect(stand.received.filter((r) => r.path.startsWith('/ok/bulk/'))).toHaveLength(Number(subscribed));
    console.log(`10,000-customer send: answered in ${answerMs} ms (inbox rows written); all ${subscribed} pushes delivered ${pushMs} ms after the click`);
  }, 400_000);
});

async function inboxOf2(s: TestServer, notificationId: number) {
  return rowsOf<{ n: number }>(await s.database.db.execute(sql`select count(*)::int as n from customer_notifications where notification_id = ${notificationId}`))[0].n;
}
