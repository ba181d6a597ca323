import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { startTestServer } from '../support/server';
import { insertOrder, sendOrderEvent } from '../support/orders';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import type { RunningServer } from '../../server/start';
import { runDueRefunds, type RefundOps, type RefundingProvider } from '../../server/payments/refunds';
import { rejectLateOrders } from '../../server/orders/deadline';
import { transitionOrder } from '../../server/orders/transition';
import type { RefundAnswer, RefundAsk } from '../../server/payments/provider';

/**
 * Issue 21, "Refunds that happen by themselves": a paid order that ends without being served gives
 * the money back through the provider that took it (cash: owed at the branch), written in the
 * lifecycle's transaction and sent by the refund worker after commit, exactly once under retries,
 * concurrency and restarts; the customer and staff see it.
 */
const tokens: Record<string, string> = {};
const db = () => server.database.db as unknown as Db;
const opsOf = (s: RunningServer): RefundOps => ({ db: s.database.db as unknown as Db, events: s.events, config: { publicUrl: s.url } });

const server = useServer();
beforeAll(async () => {
  for (const who of ['branchuser', 'brandmanager', 'admin', 'customer']) tokens[who] = await server.api.login(who);
}, 120_000);
// Each test counts its own provider's calls: whatever a test leaves pending is given back (sandbox) before the next.
afterEach(async () => {
  while (await runDueRefunds(opsOf(server), {}, new Date(Date.now() + 86_400_000)));
});

/** A provider double: remembers every refund it made by key, as a real provider's idempotency does. */
function fakeProvider(answer: (ask: RefundAsk, call: number) => RefundAnswer | Promise<RefundAnswer> = () => ({ status: 'refunded', refundRef: null, message: null })) {
  const made = new Map<string, { amount: string; ref: string }>();
  const calls: { kind: 'refund' | 'refundStatus'; key: string }[] = [];
  const respond = async (kind: 'refund' | 'refundStatus', ask: RefundAsk): Promise<RefundAnswer> => {
    calls.push({ kind, key: ask.key });
    if (made.has(ask.key)) return { status: 'refunded', refundRef: made.get(ask.key)!.ref, message: null };
    const a = await answer(ask, calls.length);
    if (a.status === 'refunded') made.set(ask.key, { amount: ask.amount, ref: a.refundRef ?? `ref-${made.size + 1}` });
    return { ...a, refundRef: a.refundRef ?? made.get(ask.key)?.ref ?? null };
  };
  const provider: RefundingProvider = { refund: (ask) => respond('refund', ask), refundStatus: (ask) => respond('refundStatus', ask) };
  return { provider, made, calls, providerFor: () => provider };
}

/** A KNET (sandbox) order the customer paid: the payment row as the sandbox page leaves it. */
async function paidCardOrder(s: RunningServer = server, columns: Partial<typeof t.orders.$inferInsert> = {}) {
  const order = await insertOrder(s, { paymentSystemId: 1, payment: 'paid', paidAt: new Date(), items: [{ productId: await firstProduct(s), quantity: 2, unitPrice: '1.900' }], ...columns });
  await s.database.db.insert(t.payments).values({ orderId: order.id, provider: 'sandbox', amount: order.total, status: 'paid', providerRef: `sbx_${randomBytes(9).toString('hex')}` });
  return order;
}
async function firstProduct(s: RunningServer) {
  const [p] = await s.database.db.select({ id: t.products.id }).from(t.products).where(eq(t.products.brandId, 7)).orderBy(t.products.id).limit(1);
  return p.id;
}
const refundsOf = (orderId: number, s: RunningServer = server) => s.database.db.select().from(t.refunds).where(eq(t.refunds.orderId, orderId)).orderBy(t.refunds.id);
const detail = async (order: { id: number; ohash: string }) => (await server.api.get('/api/services/app/Store/GetOrderDetail', { token: tokens.customer, query: { orderId: order.id, ohash: order.ohash } })).body.result;
const inbox = (orderNumber: string) => db().select({ title: t.notifications.title, text: t.notifications.text }).from(t.customerNotifications)
  .innerJoin(t.notifications, eq(t.notifications.id, t.customerNotifications.notificationId))
  .where(and(eq(t.customerNotifications.userId, 5), eq(t.notifications.title, `Refund for order ${orderNumber}`))).orderBy(t.notifications.id);
const history = async (orderNumber: string) => (await server.api.get('/api/services/app/PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser', {
  token: tokens.admin, query: { Search: orderNumber, MaxResultCount: 10 },
})).body.result.data[0];

describe('a paid order that ends without being served is refunded by itself', () => {
  it('rejected by the branch: a refund row in the same step, the worker gives the KNET payment back, customer and staff see it', async () => {
    const order = await paidCardOrder();
    const rejected = await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser);
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await refundsOf(order.id)).toMatchObject([{ cause: 'rejected', status: 'pending', amount: '3.800', provider: 'sandbox', reason: 'Item sold out' }]);
    expect((await detail(order)).refunds).toEqual([{ amount: 3.8, state: 'returning', refundedAt: null }]);
    expect(await inbox(order.orderNumber)).toEqual([{ title: `Refund for order ${order.orderNumber}`, text: '3.800 KD is being returned to your KNET card.' }]);

    // The real sandbox adapter (no double): done at once.
    await runDueRefunds(opsOf(server));
    const [row] = await refundsOf(order.id);
    expect(row).toMatchObject({ status: 'refunded', attempts: 1 });
    expect(row.providerRefundRef).toMatch(/^sbx_rf_/);
    const shown = await detail(order);
    expect(shown.refunds).toEqual([{ amount: 3.8, state: 'returned', refundedAt: row.refundedAt!.toISOString() }]);
    expect((await inbox(order.orderNumber)).map((n) => n.text)).toEqual(['3.800 KD is being returned to your KNET card.', '3.800 KD was returned to your KNET card.']);
    expect(await history(order.orderNumber)).toMatchObject({ refundId: row.id, refundStatus: 'refunded', refundAmount: 3.8 });
    const staff = await server.api.get('/api/services/app/Refund/GetOrderRefunds', { token: tokens.branchuser, query: { OrderId: order.id } });
    expect(staff.body.result).toMatchObject([{ id: row.id, status: 'refunded', cause: 'rejected', amount: 3.8 }]);
    // Nothing is left to ask for: a refund request of the rejected order is refused, and the worker has nothing to do.
    expect((await sendOrderEvent(server.api, 'order.requestRefund', order.id, tokens.branchuser)).status).toBe(409);
    expect(await runDueRefunds(opsOf(server))).toBe(0);
  });

  it("the inbox notice is in the brand's language (Arabic)", async () => {
    await db().update(t.brands).set({ defaultLanguage: 'ar' }).where(eq(t.brands.id, 7));
    try {
      const order = await paidCardOrder();
      expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
      const [notice] = await db().select({ title: t.notifications.title, text: t.notifications.text }).from(t.customerNotifications)
        .innerJoin(t.notifications, eq(t.notifications.id, t.customerNotifications.notificationId))
        .where(and(eq(t.customerNotifications.userId, 5), eq(t.notifications.title, `استرداد الطلب ${order.orderNumber}`)));
      expect(notice.text).toBe('يجري إرجاع 3.800 د.ك إلى بطاقة كي نت.');
    } finally {
      await db().update(t.brands).set({ defaultLanguage: 'en' }).where(eq(t.brands.id, 7));
    }
  });

  it('the notices are order pushes for a subscribed customer (issue 27: the order\'s topic, queued once per refund step)', async () => {
    const [sub] = await db().insert(t.pushSubscriptions).values({ userId: 5, endpoint: 'https://push.example.invalid/refund-test', p256dh: 'p', auth: 'a' }).returning();
    try {
      const order = await paidCardOrder();
      expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
      await runDueRefunds(opsOf(server));
      const queued = await db().select({ text: t.notifications.text, orderId: t.notifications.orderId, pushPending: t.customerNotifications.pushPending })
        .from(t.customerNotifications).innerJoin(t.notifications, eq(t.notifications.id, t.customerNotifications.notificationId))
        .where(and(eq(t.customerNotifications.userId, 5), eq(t.notifications.title, `Refund for order ${order.orderNumber}`))).orderBy(t.notifications.id);
      expect(queued).toEqual([
        { text: '3.800 KD is being returned to your KNET card.', orderId: order.id, pushPending: true },
        { text: '3.800 KD was returned to your KNET card.', orderId: order.id, pushPending: true },
      ]);
    } finally {
      await db().delete(t.pushSubscriptions).where(eq(t.pushSubscriptions.id, sub.id));
    }
  });

  it('rejected by the acceptance deadline: refunded, cause deadline', async () => {
    const order = await paidCardOrder(server, { createdAt: new Date(Date.now() - 11 * 60_000) });
    const fake = fakeProvider();
    expect(await rejectLateOrders(opsOf(server))).toContain(order.id);
    expect(await refundsOf(order.id)).toMatchObject([{ cause: 'deadline', status: 'pending', reason: 'Not accepted in time' }]);
    await runDueRefunds(opsOf(server), { providerFor: fake.providerFor });
    expect(await refundsOf(order.id)).toMatchObject([{ status: 'refunded' }]);
    expect([...fake.made.values()].map((m) => m.amount)).toEqual(['3.800']);
  });

  it('a payment confirmed after its order was rejected is refunded at once', async () => {
    const order = await paidCardOrder(server, { payment: 'unpaid', paidAt: null });
    await db().update(t.payments).set({ status: 'pending' }).where(eq(t.payments.orderId, order.id));
    expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
    expect(await refundsOf(order.id)).toEqual([]);
    // The provider's confirmation arrives late: the payment is paid, and the order's markPaid is the step that refunds it.
    await db().update(t.payments).set({ status: 'paid' }).where(eq(t.payments.orderId, order.id));
    await transitionOrder({ db: db(), events: server.events }, order.id, { type: 'order.markPaid' }, null);
    expect(await refundsOf(order.id)).toMatchObject([{ cause: 'paidAfterRejection', status: 'pending', amount: '3.800' }]);
  });

  it('cash: the refund is owed at the branch, no provider is called', async () => {
    const order = await insertOrder(server, { payment: 'paid', paidAt: new Date() });
    const fake = fakeProvider();
    expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
    expect(await refundsOf(order.id)).toMatchObject([{ cause: 'rejected', status: 'owed', provider: 'cash', amount: '2.500' }]);
    await runDueRefunds(opsOf(server), { providerFor: fake.providerFor });
    expect(fake.calls).toEqual([]);
    expect((await detail(order)).refunds).toEqual([{ amount: 2.5, state: 'owed', refundedAt: null }]);
    expect((await inbox(order.orderNumber)).map((n) => n.text)).toEqual(['2.500 KD will be returned to you at the branch.']);
  });
});

describe('an approved refund request', () => {
  it('of a closed order: the partial amount goes back, and the points it earned are taken back in proportion', async () => {
    const [program] = await db().insert(t.rewardPrograms).values({ branchId: 1, brandId: 7, kind: 'points', name: 'Refund test points', pointsPerKd: '10', isActive: true } as never).returning();
    try {
      const order = await paidCardOrder();
      for (const type of ['order.accept', 'order.close'] as const) expect((await sendOrderEvent(server.api, type, order.id, tokens.branchuser)).status).toBe(200);
      const ledger = () => db().select({ key: t.walletLedger.idempotencyKey, amount: t.walletLedger.amount }).from(t.walletLedger)
        .where(inArray(t.walletLedger.idempotencyKey, [`order:${order.id}:points-earned`, `order:${order.id}:points-taken-back`]));
      expect((await ledger()).map((r) => Number(r.amount))).toEqual([38]); // 3.800 KD × 10
      const asked = await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: tokens.branchuser, body: { orderId: order.id, amount: 1, reason: 'Cold drink' } });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(await refundsOf(order.id)).toEqual([]);
      expect((await sendOrderEvent(server.api, 'order.approveRefund', order.id, tokens.brandmanager)).status).toBe(200);
      expect(await refundsOf(order.id)).toMatchObject([{ cause: 'refundRequest', amount: '1.000', status: 'pending', reason: 'Cold drink', refundRequestId: asked.body.result.id }]);
      // 38 × 1.000 / 3.800 = 10 points taken back, once.
      expect((await ledger()).map((r) => [r.key.split(':')[2], Number(r.amount)]).sort()).toEqual([['points-earned', 38], ['points-taken-back', -10]]);
      const fake = fakeProvider();
      await runDueRefunds(opsOf(server), { providerFor: fake.providerFor });
      expect([...fake.made.values()].map((m) => m.amount)).toEqual(['1.000']);
      expect(await refundsOf(order.id)).toMatchObject([{ status: 'refunded' }]);
    } finally {
      await db().update(t.rewardPrograms).set({ isActive: false }).where(eq(t.rewardPrograms.id, program.id));
    }
  });

  it('of an open order ends it, and everything is given back (it will never be served)', async () => {
    const order = await paidCardOrder();
    await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: tokens.branchuser, body: { orderId: order.id, amount: 1, reason: 'Changed mind' } });
    expect((await sendOrderEvent(server.api, 'order.approveRefund', order.id, tokens.brandmanager)).status).toBe(200);
    expect(await refundsOf(order.id)).toMatchObject([{ cause: 'refundRequest', amount: '3.800' }]);
  });
});

describe('a refund the provider refuses', () => {
  it('is failed and shown to staff; Retry asks again under a new key; the money goes back once', async () => {
    const order = await paidCardOrder();
    expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
    const declining = fakeProvider(() => ({ status: 'failed', refundRef: null, message: 'Insufficient merchant balance' }));
    await runDueRefunds(opsOf(server), { providerFor: declining.providerFor });
    const [row] = await refundsOf(order.id);
    expect(row).toMatchObject({ status: 'failed', lastMessage: 'Insufficient merchant balance' });
    expect(await history(order.orderNumber)).toMatchObject({ refundStatus: 'failed' });
    const seen = await server.api.get('/api/services/app/Refund/GetOrderRefunds', { token: tokens.brandmanager, query: { OrderId: order.id } });
    expect(seen.body.result[0]).toMatchObject({ status: 'failed', lastMessage: 'Insufficient merchant balance' });
    // The customer is still told it is on its way (staff retry it).
    expect((await detail(order)).refunds[0].state).toBe('returning');

    const retry = (who: string) => server.api.post('/api/services/app/Refund/RetryRefund', { token: tokens[who], body: { refundId: row.id } });
    expect((await retry('branchuser')).status).toBe(403);
    expect((await server.api.post('/api/services/app/Refund/RetryRefund', { body: { refundId: row.id } })).status).toBe(401);
    const [first, second] = await Promise.all([retry('brandmanager'), retry('admin')]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const working = fakeProvider();
    await runDueRefunds(opsOf(server), { providerFor: working.providerFor });
    await runDueRefunds(opsOf(server), { providerFor: working.providerFor });
    expect(await refundsOf(order.id)).toMatchObject([{ status: 'refunded', retries: 1 }]);
    expect(declining.calls.map((c) => c.key)).toHaveLength(1);
    expect(working.calls).toHaveLength(1);
    expect(working.calls[0].key).not.toBe(declining.calls[0].key);
    expect((await retry('admin')).status).toBe(409);
  });

  it('a pending answer is asked about again (refundStatus) after a backoff; an unreachable provider is retried, then failed', async () => {
    const order = await paidCardOrder();
    expect((await sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser)).status).toBe(200);
    let settle = false;
    const slow = fakeProvider(() => (settle ? { status: 'refunded', refundRef: 'R1', message: null } : { status: 'pending', refundRef: 'R1', message: 'Queued at the bank' }));
    const t0 = Date.now();
    await runDueRefunds(opsOf(server), { providerFor: slow.providerFor }, new Date(t0));
    expect(await refundsOf(order.id)).toMatchObject([{ status: 'pending', providerStatus: 'pending', providerRefundRef: 'R1' }]);
    // Not due again before the backoff (30 s).
    await runDueRefunds(opsOf(server), { providerFor: slow.providerFor }, new Date(t0 + 10_000));
    expect(slow.calls).toHaveLength(1);
    settle = true;
    await runDueRefunds(opsOf(server), { providerFor: slow.providerFor }, new Date(t0 + 31_000));
    expect(slow.calls.map((c) => c.kind)).toEqual(['refund', 'refundStatus']);
    expect(await refundsOf(order.id)).toMatchObject([{ status: 'refunded', providerRefundRef: 'R1' }]);

    const other = await paidCardOrder();
    expect((await sendOrderEvent(server.api, 'order.reject', other.id, tokens.branchuser)).status).toBe(200);
    const down: RefundingProvider = { refund: async () => { throw new Error('ECONNREFUSED'); }, refundStatus: async () => { throw new Error('ECONNREFUSED'); } };
    for (let i = 0; i < 3; i++) await runDueRefunds(opsOf(server), { providerFor: () => down, maxUnreachable: 3, backoffMs: () => 0 }, new Date(t0 + 60_000 * (i + 1)));
    expect(await refundsOf(other.id)).toMatchObject([{ status: 'failed', attempts: 3 }]);
    expect((await refundsOf(other.id))[0].lastMessage).toContain('ECONNREFUSED');
  });
});

describe('exactly once', () => {
  it('parallel reject, refund approval and workers: one refund, the money given back once', async () => {
    const order = await paidCardOrder();
    await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: tokens.branchuser, body: { orderId: order.id, reason: 'Twice' } });
    const fake = fakeProvider(async () => { await new Promise((r) => setTimeout(r, 20)); return { status: 'refunded', refundRef: null, message: null }; });
    const workers = () => Promise.all(Array.from({ length: 4 }, () => runDueRefunds(opsOf(server), { providerFor: fake.providerFor })));
    const results = await Promise.all([
      sendOrderEvent(server.api, 'order.reject', order.id, tokens.branchuser),
      sendOrderEvent(server.api, 'order.approveRefund', order.id, tokens.brandmanager),
      workers(), workers(),
    ]);
    expect([results[0].status, results[1].status]).toContain(200);
    await workers();
    await workers();
    const rows = await refundsOf(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'refunded', amount: '3.800' });
    expect(fake.made.size).toBe(1);
    expect(fake.calls).toHaveLength(1);
  });

  it('a restart between the lifecycle commit and the provider call, and one during the call: refunded exactly once', async () => {
    const pg = process.env.TEST_DATABASE_URL;
    const dir = pg ? null : mkdtempSync(path.join(tmpdir(), 'refunds-'));
    let first = await startTestServer(dir ? { dataDir: dir } : {});
    const keep = pg ? { databaseUrl: (first.database.client as { options: { connectionString: string } }).options.connectionString } : { dataDir: dir!, loadDataDir: undefined };
    try {
      const token = await first.api.login('branchuser');
      const order = await paidCardOrder(first);
      expect((await sendOrderEvent(first.api, 'order.reject', order.id, token)).status).toBe(200);
      await first.close(); // the process stops before any worker asked the provider

      const fake = fakeProvider();
      let second = await startTestServer(keep);
      expect(await refundsOf(order.id, second)).toMatchObject([{ status: 'pending', attempts: 0 }]);
      // This process claims it and asks the provider, which refunds, but the process dies before the answer is written.
      const hung: RefundingProvider = { refund: async (ask) => { await fake.provider.refund(ask); return new Promise<RefundAnswer>(() => {}); }, refundStatus: fake.provider.refundStatus };
      void runDueRefunds(opsOf(second), { providerFor: () => hung });
      await expect.poll(() => fake.calls.length).toBe(1);
      await second.close();

      const third = await startTestServer(keep);
      try {
        // Within the lease nobody takes it; after it, the same key is asked again and the provider answers the refund it already made.
        expect(await runDueRefunds(opsOf(third), { providerFor: fake.providerFor })).toBe(0);
        await runDueRefunds(opsOf(third), { providerFor: fake.providerFor }, new Date(Date.now() + 3 * 60_000));
        expect(await refundsOf(order.id, third)).toMatchObject([{ status: 'refunded', attempts: 2 }]);
        expect(fake.made.size).toBe(1);
        expect(new Set(fake.calls.map((c) => c.key)).size).toBe(1);
      } finally {
        await third.close();
      }
      second = null as never;
    } finally {
      first = null as never;
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
