import { describe, expect, it } from 'vitest';
import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { insertOrder, sendOrderEvent } from '../support/orders';
import { fakePushService } from '../support/fakePushService';
import { useServer, useStarted } from '../support/harness';
import * as t from '../../server/db/schema';
import { MARKETING_PUSH, orderStatusPush, pruneSilentSubscriptions, retryAfterMs, webPushSender } from '../../server/notify';

/**
 * Issue 27, "Web push done right": what each push asks of the push service (TTL, Urgency, Topic)
 * and what the sender does with each answer, against a local push service (tests/support/fakePushService.ts).
 */
const keys = () => ({ p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') });
const push = useStarted('the fake push service', fakePushService);
const vapid = webpush.generateVAPIDKeys();
const sender = () => webPushSender({ ...vapid, subject: 'mailto:ops@brewops.test', timeoutMs: 5_000, retry: { baseDelayMs: 20 } });


describe('the sender', () => {
  it('asks for 15 minutes, high urgency and the order\'s topic for an order status; a day at normal urgency for a notification', async () => {
    const s = sender();
    expect(await s.send({ endpoint: `${push.url}/ok/order`, keys: keys() }, '{"title":"Order"}', orderStatusPush(42))).toBe('sent');
    expect(push.to('/ok/order')[0].headers).toMatchObject({ ttl: '900', urgency: 'high', topic: 'order-42' });
    expect(await s.send({ endpoint: `${push.url}/ok/news`, keys: keys() }, '{"title":"News"}', MARKETING_PUSH)).toBe('sent');
    const news = push.to('/ok/news')[0].headers;
    expect(news).toMatchObject({ ttl: '86400', urgency: 'normal' });
    expect(news.topic).toBeUndefined();
  });

  it('tries a 429 again after its Retry-After, and a 500 five times in all', async () => {
    const s = sender();
    expect(await s.send({ endpoint: `${push.url}/flaky/one`, keys: keys() }, '{}', MARKETING_PUSH)).toBe('sent');
    const [first, second] = push.to('/flaky/one');
    expect(push.to('/flaky/one')).toHaveLength(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(950); // Retry-After: 1, not the 20 ms back-off
    expect(await s.send({ endpoint: `${push.url}/broken/one`, keys: keys() }, '{}', MARKETING_PUSH)).toBe('failed');
    expect(push.to('/broken/one')).toHaveLength(5);
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThan(28_000);
    expect(retryAfterMs(null)).toBeNull();
  });

  it('does not try 400, 403 or 413 again, and calls 404 and 410 gone', async () => {
    const s = sender();
    for (const kind of ['bad', 'forbidden', 'toolarge']) {
      expect(await s.send({ endpoint: `${push.url}/${kind}/one`, keys: keys() }, '{}', MARKETING_PUSH), kind).toBe('failed');
      expect(push.to(`/${kind}/one`), kind).toHaveLength(1);
    }
    for (const kind of ['missing', 'gone']) {
      expect(await s.send({ endpoint: `${push.url}/${kind}/one`, keys: keys() }, '{}', MARKETING_PUSH), kind).toBe('gone');
      expect(push.to(`/${kind}/one`), kind).toHaveLength(1);
    }
  });
});

describe('the server', () => {
  const db = () => server.database.db;
  const server = useServer(() => ({ push: sender() }));
  const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
    const t0 = Date.now();
    while (!(await check())) {
      if (Date.now() - t0 > ms) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('pushes an order\'s status once with its topic, records the success, deletes a subscription that is gone', async () => {
    const customer = { id: 5 }; // the seeded customer, insertOrder's default
    await db().insert(t.pushSubscriptions).values([
      { userId: customer.id, endpoint: `${push.url}/ok/customer-phone`, ...keys() },
      { userId: customer.id, endpoint: `${push.url}/gone/customer-old`, ...keys() },
    ]);
    const order = await insertOrder(server);
    const branch = await server.api.login('branchuser');
    expect((await sendOrderEvent(server.api, 'order.accept', order.id, branch)).status).toBe(200);
    const event = { type: 'order.changed' as const, orderId: order.id, branchId: order.branchId, brandId: order.brandId };
    await server.events.publish(event); // heard again (another replica, another change): still one notice
    await until(() => push.to('/ok/customer-phone').length > 0);
    await new Promise((r) => setTimeout(r, 300));
    const sent = push.to('/ok/customer-phone');
    expect(sent).toHaveLength(1);
    expect(sent[0].headers).toMatchObject({ ttl: '900', urgency: 'high', topic: `order-${order.id}` });
    await until(async () => (await db().select().from(t.pushSubscriptions).where(eq(t.pushSubscriptions.endpoint, `${push.url}/gone/customer-old`))).length === 0);
    const [live] = await db().select().from(t.pushSubscriptions).where(eq(t.pushSubscriptions.endpoint, `${push.url}/ok/customer-phone`));
    expect(live.lastSuccessAt).not.toBeNull();
    const notices = await db().select().from(t.notifications).where(eq(t.notifications.orderId, order.id));
    expect(notices.map((n) => n.orderStatus)).toEqual(['accepted']);

    // A newer status under the same topic replaces the older one at the push service.
    expect((await sendOrderEvent(server.api, 'order.ready', order.id, branch)).status).toBe(200);
    await until(() => push.to('/ok/customer-phone').length > 1);
    expect(push.to('/ok/customer-phone')[1].headers).toMatchObject({ topic: `order-${order.id}`, urgency: 'high' });
  });

  it('prunes a subscription with no success in 60 days, keeps one that took a push lately', async () => {
    const customer = { id: 5 };
    await db().insert(t.pushSubscriptions).values([
      { userId: customer.id, endpoint: `${push.url}/ok/silent`, ...keys(), createdAt: new Date(Date.now() - 90 * 86_400_000), lastSuccessAt: new Date(Date.now() - 61 * 86_400_000) },
      { userId: customer.id, endpoint: `${push.url}/ok/never`, ...keys(), createdAt: new Date(Date.now() - 61 * 86_400_000) },
      { userId: customer.id, endpoint: `${push.url}/ok/lately`, ...keys(), createdAt: new Date(Date.now() - 90 * 86_400_000), lastSuccessAt: new Date(Date.now() - 59 * 86_400_000) },
    ]);
    await pruneSilentSubscriptions(db());
    const left = (await db().select({ endpoint: t.pushSubscriptions.endpoint }).from(t.pushSubscriptions)).map((s) => s.endpoint.slice(push.url.length));
    expect(left).toContain('/ok/lately');
    expect(left).not.toContain('/ok/silent');
    expect(left).not.toContain('/ok/never');
  });
});
