import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

const PUBLIC_URL = 'https://shop.example.test';
const SAVE = '/api/services/app/Store/SaveNewOrderVS1';

let customer: string;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let keySeq = 0;

const server = useServer({ publicUrl: PUBLIC_URL });
beforeAll(async () => {
  menu = await seededMenu(server);
  customer = await server.api.login('customer');
});

/** Two Cold Brews (Large) by card: 2 × (1.750 + 0.500) = 4.500 KD. */
async function cardOrder(paymentSystem = 1, key = `pay-${++keySeq}`) {
  const body = {
    brandId: 7, paymentSystem, deliveryOptions: { branchId: 1, isPickup: true },
    products: [{ productId: menu.product('Cold Brew'), quantity: 2, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
  };
  const res = await server.api.post(SAVE, { token: customer, body, headers: { 'idempotency-key': key } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...res.body.result, body, key } as { orderId: number; ohash: string; paymentUrl: string; isPaid: boolean; total: number; body: unknown; key: string };
}

const pathOf = (url: string) => url.slice(PUBLIC_URL.length);
const post = (url: string) => server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
const orderRow = async (id: number) => (await server.database.db.select().from(t.orders).where(eq(t.orders.id, id)))[0];
const paymentRows = (orderId: number) => server.database.db.select().from(t.payments).where(eq(t.payments.orderId, orderId));

describe('payment methods', () => {
  it("lists the brand's enabled methods; card providers show as VISA/MASTER; cash is the default", async () => {
    const res = await server.api.get('/api/services/app/Store/GetStorePaymentSystemTypesForTopUpV2ForMangoes', { query: { brandId: 7 } });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      { paymentSystemId: 1, name: 'KNET', isCard: false, isDefault: false },
      { paymentSystemId: 2, name: 'Cash at branch', isCard: false, isDefault: true },
      { paymentSystemId: 3, name: 'VISA/MASTER', isCard: true, isDefault: false },
    ]);
  });
});

describe('sandbox payment provider', () => {
  it('sends a card order to the hosted page with its amount and merchant', async () => {
    const order = await cardOrder();
    expect(order).toMatchObject({ isPaid: false, total: 4.5 });
    expect(order.paymentUrl).toMatch(new RegExp(`^${PUBLIC_URL}/payments/sandbox/sbx_[\\w-]+$`));
    const page = await server.app.inject({ url: pathOf(order.paymentUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('4.500 KD');
    expect(page.body).toContain('Mango Coffee');
    expect(page.body).toMatch(/<button class="pay">Pay<\/button>/);
    expect(page.body).toMatch(/<button class="cancel">Cancel<\/button>/);
    const [payment] = await paymentRows(order.orderId);
    expect(payment).toMatchObject({ provider: 'sandbox', status: 'pending', amount: '4.500' });
  });

  it('Pay marks the payment and the order paid exactly once, and returns to /track-order', async () => {
    const order = await cardOrder();
    const before = await orderRow(order.orderId);
    const paid = await post(`${pathOf(order.paymentUrl)}/pay`);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PUBLIC_URL}/track-order?orderId=${order.orderId}&ohash=${encodeURIComponent(order.ohash)}`);
    const after = await orderRow(order.orderId);
    expect(after).toMatchObject({ payment: 'paid', version: before.version + 1 });
    expect(after.paidAt).not.toBeNull();
    expect(await paymentRows(order.orderId)).toMatchObject([{ status: 'paid' }]);

    // Paying again (twice more, and three at once) changes nothing.
    const again = await Promise.all([post(`${pathOf(order.paymentUrl)}/pay`), post(`${pathOf(order.paymentUrl)}/pay`), post(`${pathOf(order.paymentUrl)}/pay`)]);
    for (const r of again) expect(r.headers.location).toBe(paid.headers.location);
    expect(await orderRow(order.orderId)).toMatchObject({ payment: 'paid', version: after.version, paidAt: after.paidAt });
    expect(await paymentRows(order.orderId)).toHaveLength(1);
    // A cancel after paying does not unpay.
    expect((await post(`${pathOf(order.paymentUrl)}/cancel`)).headers.location).toBe(paid.headers.location);
    expect((await orderRow(order.orderId)).payment).toBe('paid');

    const detail = await server.api.get('/api/services/app/Store/GetOrderDetail', { token: customer, query: { orderId: order.orderId, ohash: order.ohash } });
    expect(detail.body.result).toMatchObject({ isPaid: true, payment: 'paid', paymentSystemName: 'KNET' });
    const page = await server.app.inject({ url: pathOf(order.paymentUrl) });
    expect(page.body).toContain('This payment is complete');
  });

  it('concurrent first payments mark the order paid once', async () => {
    const order = await cardOrder(3);
    const before = await orderRow(order.orderId);
    await Promise.all([1, 2, 3, 4].map(() => post(`${pathOf(order.paymentUrl)}/pay`)));
    expect(await orderRow(order.orderId)).toMatchObject({ payment: 'paid', version: before.version + 1 });
  });

  it('Cancel returns to /track-order with the order left unpaid; paying afterwards does nothing', async () => {
    const order = await cardOrder();
    const cancelled = await post(`${pathOf(order.paymentUrl)}/cancel`);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`${PUBLIC_URL}/track-order?orderId=${order.orderId}&ohash=${encodeURIComponent(order.ohash)}&payment=cancelled`);
    expect(await orderRow(order.orderId)).toMatchObject({ payment: 'unpaid', paidAt: null });
    expect(await paymentRows(order.orderId)).toMatchObject([{ status: 'cancelled' }]);
    const late = await post(`${pathOf(order.paymentUrl)}/pay`);
    expect(late.headers.location).toContain('payment=cancelled');
    expect((await orderRow(order.orderId)).payment).toBe('unpaid');
  });

  it('a replayed order request answers with the same payment link while unpaid', async () => {
    const order = await cardOrder(1, 'pay-replay');
    const replay = await server.api.post(SAVE, { token: customer, body: order.body, headers: { 'idempotency-key': 'pay-replay' } });
    expect(replay.body.result).toMatchObject({ orderId: order.orderId, paymentUrl: order.paymentUrl, isPaid: false });
    expect(await paymentRows(order.orderId)).toHaveLength(1);
  });

  it('an unknown payment link is a 404 page', async () => {
    expect((await server.app.inject({ url: '/payments/sandbox/sbx_nope' })).statusCode).toBe(404);
    expect((await post('/payments/sandbox/sbx_nope/pay')).statusCode).toBe(404);
  });

  it('is not part of the OpenAPI document', async () => {
    const doc = (await server.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes('sandbox'))).toEqual([]);
    expect(doc.paths['/api/services/app/Store/SaveNewOrderVS1'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]),
    );
  });
});
