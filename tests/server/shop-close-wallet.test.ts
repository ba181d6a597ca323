import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { startTestServer, countRows, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import { sendOrderEvent } from '../support/orders';
import * as t from '../../server/db/schema';
import { ledgerMismatches, postToLedger } from '../../server/loyalty/ledger';
import { ORDER_TEXT } from '../../server/services/store/planOrder';
import { WALLET_PAYMENT_METHOD_ID } from '../../domain/constants';

/**
 * Issue 24, "pay with the wallet": the customer's brand wallet pays the whole total at checkout.
 * The server prices it (Store/QuoteOrder says what the wallet pays), spends it in the order's
 * transaction through the ledger, and the order is paid at once; a double submit spends once; a
 * race of orders cannot spend the same money twice; not enough is a clear 400 with nothing
 * written; the guest cannot; a rejection or an approved refund gives it back once.
 */
const API = '/api/services/app';
const CUSTOMER_ID = 5;
let server: TestServer;
let menu: Awaited<ReturnType<typeof seededMenu>>;
const tokens: Record<string, string> = {};
let keySeq = 0;

beforeAll(async () => {
  server = await startTestServer();
  menu = await seededMenu(server);
  for (const who of ['customer', 'branchuser', 'brandmanager']) tokens[who] = await server.api.login(who);
}, 120_000);
afterAll(async () => { await server?.close(); });

const db = () => server.database.db;
/** The customer's wallet balance in brand 7, in KD. */
const balance = async () => {
  const [w] = await db().select({ balance: t.customerWallets.balance }).from(t.customerWallets)
    .where(and(eq(t.customerWallets.userId, CUSTOMER_ID), eq(t.customerWallets.brandId, 7)));
  return Number(w?.balance ?? 0);
};
/** Sets the wallet to `kd` through the ledger (a staff grant's row), so the ledger and the cache agree. */
async function walletHolds(kd: number) {
  const diff = Math.round((kd - await balance()) * 1000) / 1000;
  await postToLedger(db(), {
    userId: CUSTOMER_ID, brandId: 7, account: 'wallet', amount: diff, reason: 'test', reference: { type: 'adjustment', id: null },
    createdBy: 1, key: `test:wallet:${++keySeq}`,
  });
}
/** One espresso (0.900 KD) and one cookie, for pick-up. */
const body = (extra: Record<string, unknown> = {}) => ({
  brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true },
  products: [{ productId: menu.product('Espresso'), quantity: 1 }, { productId: menu.product('Pistachio Cookie'), quantity: 1 }], ...extra,
});
const place = (b: unknown, key = `wallet-${++keySeq}`, token = tokens.customer) =>
  server.api.post(`${API}/Store/SaveNewOrderVS1`, { token, body: b, headers: { 'idempotency-key': key } });
const quote = (b: unknown) => server.api.post(`${API}/Store/QuoteOrder`, { token: tokens.customer, body: b });
const ledgerOf = (orderId: number) => db().select().from(t.walletLedger).where(eq(t.walletLedger.orderId, orderId));

describe('paying with the wallet', () => {
  it('the quote says what the wallet pays; the order is paid at once and the total is spent once by the ledger', async () => {
    await walletHolds(10);
    const plain = await quote(body());
    const priced = await quote(body({ payWithWallet: true }));
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.result.wallet).toBe(plain.body.result.total);
    expect(plain.body.result.wallet).toBe(0);
    const total = plain.body.result.total as number;
    expect(await balance()).toBe(10); // a quote spends nothing

    // A double submit (one key, twice at once): one order, spent once.
    const key = `wallet-double-${++keySeq}`;
    const [a, b] = await Promise.all([place(body({ payWithWallet: true }), key), place(body({ payWithWallet: true }), key)]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.result.orderId).toBe(a.body.result.orderId);
    expect(a.body.result).toMatchObject({ isPaid: true, paymentUrl: null, total });
    const orderId = a.body.result.orderId as number;
    const [order] = await db().select().from(t.orders).where(eq(t.orders.id, orderId));
    expect(order).toMatchObject({ payment: 'paid', paymentSystemId: WALLET_PAYMENT_METHOD_ID });
    expect(await db().select({ provider: t.payments.provider, status: t.payments.status, amount: t.payments.amount }).from(t.payments).where(eq(t.payments.orderId, orderId)))
      .toEqual([{ provider: 'wallet', status: 'paid', amount: total.toFixed(3) }]);
    expect((await ledgerOf(orderId)).map((l) => [l.idempotencyKey, l.account, Number(l.amount)])).toEqual([[`order:${orderId}:wallet-spent`, 'wallet', -total]]);
    expect(await balance()).toBeCloseTo(10 - total, 3);
    // The tracker names the wallet as the payment.
    const detail = await server.api.get(`${API}/Store/GetOrderDetail`, { token: tokens.customer, query: { orderId }, headers: { 'accept-language': 'ar' } });
    expect(detail.body.result).toMatchObject({ isPaid: true, paymentSystemName: 'المحفظة', isCash: false });
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('parallel orders cannot spend the same money: one is placed, the others are the 400 with nothing written', async () => {
    const total = (await quote(body())).body.result.total as number;
    await walletHolds(total * 1.5); // enough for one order, not two
    const ordersBefore = await countRows(server, 'orders');
    const answers = await Promise.all([1, 2, 3, 4].map(() => place(body({ payWithWallet: true }))));
    const placed = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(placed).toHaveLength(1);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.error?.message).toBe(ORDER_TEXT.walletNotEnough);
    }
    expect(await countRows(server, 'orders')).toBe(ordersBefore + 1);
    expect(await balance()).toBeCloseTo(total * 0.5, 3);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('not enough balance is a clear 400 (quote and order) and writes nothing; the guest cannot', async () => {
    await walletHolds(0.5);
    const counts = async () => Promise.all(['orders', 'payments', 'wallet_ledger', 'customer_wallets'].map((n) => countRows(server, n)));
    const before = await counts();
    const refusedQuote = await quote(body({ payWithWallet: true }));
    expect(refusedQuote.status).toBe(400);
    expect(refusedQuote.body.error?.message).toBe(ORDER_TEXT.walletNotEnough);
    const refused = await place(body({ payWithWallet: true }));
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(ORDER_TEXT.walletNotEnough);
    const guest = await place(body({ payWithWallet: true, guestCustomerName: 'Huda', guestPhoneNumber: '+96550000043' }), `wallet-guest-${++keySeq}`, await server.api.guestToken());
    expect(guest.status).toBe(400);
    expect(guest.body.error?.message).toBe(ORDER_TEXT.walletGuest);
    expect(await counts()).toEqual(before);
    expect(await balance()).toBe(0.5);
  });

  it('a rejection sent twice at once gives it back once, to the wallet, at once', async () => {
    await walletHolds(5);
    const placed = await place(body({ payWithWallet: true }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, total } = placed.body.result as { orderId: number; total: number };
    expect(await balance()).toBeCloseTo(5 - total, 3);
    const answers = (await Promise.all([1, 2].map(() => sendOrderEvent(server.api, 'order.reject', orderId, tokens.branchuser)))).map((r) => r.status).sort();
    expect(answers).toEqual([200, 409]);
    expect(await balance()).toBe(5);
    expect((await ledgerOf(orderId)).map((l) => [l.idempotencyKey, Number(l.amount)]).sort())
      .toEqual([[`order:${orderId}:wallet-returned`, total], [`order:${orderId}:wallet-spent`, -total]]);
    expect(await db().select({ provider: t.refunds.provider, status: t.refunds.status, amount: t.refunds.amount }).from(t.refunds).where(eq(t.refunds.orderId, orderId)))
      .toEqual([{ provider: 'wallet', status: 'refunded', amount: total.toFixed(3) }]);
    // The customer is told where the money went.
    const notices = await db().select({ text: t.notifications.text }).from(t.notifications)
      .where(and(eq(t.notifications.orderId, orderId), like(t.notifications.orderStatus, 'refund-%')));
    expect(notices.map((n) => n.text)).toEqual([`${total.toFixed(3)} KD was returned to your wallet.`]);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('an approved refund request gives the amount back to the wallet once', async () => {
    await walletHolds(5);
    const placed = await place(body({ payWithWallet: true }));
    const { orderId, total } = placed.body.result as { orderId: number; total: number };
    for (const type of ['order.accept', 'order.close'] as const) expect((await sendOrderEvent(server.api, type, orderId, tokens.branchuser)).status).toBe(200);
    const asked = await server.api.post(`${API}/Refund/InitiateRefundRequest`, { token: tokens.branchuser, body: { orderId, amount: 1, reason: 'Cold drink' } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const approvals = await Promise.all([1, 2].map(() => sendOrderEvent(server.api, 'order.approveRefund', orderId, tokens.brandmanager)));
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await balance()).toBeCloseTo(5 - total + 1, 3);
    expect((await ledgerOf(orderId)).filter((l) => l.account === 'wallet').map((l) => [l.idempotencyKey, Number(l.amount)]).sort())
      .toEqual([[`order:${orderId}:wallet-returned`, 1], [`order:${orderId}:wallet-spent`, -total]]);
    expect(await ledgerMismatches(db())).toEqual([]);
  });
});
