import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { PAY_AGAIN_TEXT } from '../../server/services/store/payAgain';

/**
 * Issue 12: the card payment's way back, and Pay again. This server runs as `npm start` does when
 * PUBLIC_URL is unset: its links must not send the customer to another origin (the listen address),
 * where the shop has no session.
 */
const SAVE = '/api/services/app/Store/SaveNewOrderVS1';
const AGAIN = '/api/services/app/Store/PayOrderAgain';

let customer: string;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let keySeq = 0;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  customer = await server.api.login('customer');
});

async function order(paymentSystem: number, token = customer) {
  const body = {
    brandId: 7, paymentSystem, deliveryOptions: { branchId: 1, isPickup: true },
    products: [{ productId: menu.product('Cold Brew'), quantity: 2, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
  };
  const res = await server.api.post(SAVE, { token, body, headers: { 'idempotency-key': `again-${++keySeq}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { orderId: number; ohash: string; paymentUrl: string | null; total: number };
}
const post = (url: string) => server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
const paymentRows = (orderId: number) => server.database.db.select().from(t.payments).where(eq(t.payments.orderId, orderId)).orderBy(t.payments.id);
const orderRow = async (id: number) => (await server.database.db.select().from(t.orders).where(eq(t.orders.id, id)))[0];

describe('the way back from the card payment without PUBLIC_URL', () => {
  it('links are root-relative, so the browser stays on the origin it opened the shop at', async () => {
    const o = await order(1);
    expect(o.paymentUrl).toMatch(/^\/payments\/sandbox\/sbx_[\w-]+$/);
    const paid = await post(`${o.paymentUrl}/pay`);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/track-order?orderId=${o.orderId}&ohash=${encodeURIComponent(o.ohash)}`);
  });
});

describe('Store/PayOrderAgain', () => {
  it('after a cancelled payment: a new payment, the same one while it is open, and never a second charge', async () => {
    const o = await order(1);
    const cancelled = await post(`${o.paymentUrl}/cancel`);
    expect(cancelled.headers.location).toContain('payment=cancelled');

    // Five taps at once: one new payment, one link.
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => server.api.post(AGAIN, { token: customer, body: { orderId: o.orderId } })));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const urls = new Set(answers.map((a) => a.body.result.paymentUrl));
    expect(urls.size).toBe(1);
    const [url] = urls;
    expect(url).not.toBe(o.paymentUrl);
    expect((await paymentRows(o.orderId)).map((p) => p.status)).toEqual(['cancelled', 'pending']);
    // The order's replayed answer (same Idempotency-Key) now names the open payment too.
    expect((await paymentRows(o.orderId))[1].amount).toBe('4.500');

    expect((await post(`${url}/pay`)).headers.location).not.toContain('payment=cancelled');
    expect((await orderRow(o.orderId)).payment).toBe('paid');
    // The cancelled one cannot be paid any more, and nothing is started once paid.
    await post(`${o.paymentUrl}/pay`);
    const paidAgain = await server.api.post(AGAIN, { token: customer, body: { orderId: o.orderId } });
    expect(paidAgain.status).toBe(400);
    expect(paidAgain.body.error!.message).toBe(PAY_AGAIN_TEXT.paid);
    expect((await paymentRows(o.orderId)).map((p) => p.status)).toEqual(['cancelled', 'paid']);
  });

  it('a guest pays again with the ohash; without it the order is not found', async () => {
    const guest = await server.api.guestToken();
    const body = {
      brandId: 7, paymentSystem: 1, deliveryOptions: { branchId: 1, isPickup: true },
      guestCustomerName: 'Pay Again Guest', guestPhoneNumber: '+96550000077',
      products: [{ productId: menu.product('Cold Brew'), quantity: 2, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
    };
    const placed = await server.api.post(SAVE, { token: guest, body, headers: { 'idempotency-key': `again-guest-${++keySeq}` } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const o = placed.body.result;
    await post(`${o.paymentUrl}/cancel`);
    expect((await server.api.post(AGAIN, { token: guest, body: { orderId: o.orderId } })).status).toBe(404);
    expect((await server.api.post(AGAIN, { token: customer, body: { orderId: o.orderId } })).status).toBe(404);
    expect((await server.api.post(AGAIN, { body: { orderId: o.orderId, ohash: o.ohash } })).status).toBe(401);
    const again = await server.api.post(AGAIN, { token: guest, body: { orderId: o.orderId, ohash: o.ohash } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result.paymentUrl).toMatch(/^\/payments\/sandbox\/sbx_/);
  });

  it('refuses a cash order and a rejected order, writing nothing', async () => {
    const cash = await order(2);
    const res = await server.api.post(AGAIN, { token: customer, body: { orderId: cash.orderId } });
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toBe(PAY_AGAIN_TEXT.notOnline);

    const o = await order(1);
    await post(`${o.paymentUrl}/cancel`);
    const admin = await server.api.login('admin');
    const reject = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: admin, body: { orderId: o.orderId, status: 'rejected', reason: 'Item sold out' } });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);
    const refused = await server.api.post(AGAIN, { token: customer, body: { orderId: o.orderId } });
    expect(refused.status).toBe(400);
    expect(refused.body.error!.message).toBe(PAY_AGAIN_TEXT.rejected);
    expect((await paymentRows(o.orderId)).map((p) => p.status)).toEqual(['cancelled']);
  });
});

describe('Store/QuoteOrder', () => {
  it('prices the order as SaveNewOrderVS1 then charges it, and writes nothing', async () => {
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true },
      products: [{ productId: menu.product('Cold Brew'), quantity: 3, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
    };
    const before = (await server.database.db.select().from(t.orders)).length;
    const quote = await server.api.post('/api/services/app/Store/QuoteOrder', { token: customer, body });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect((await server.database.db.select().from(t.orders)).length).toBe(before);
    const placed = await server.api.post(SAVE, { token: customer, body, headers: { 'idempotency-key': `quote-${++keySeq}` } });
    expect(quote.body.result.total).toBe(placed.body.result.total);
    expect(quote.body.result).toMatchObject({ subtotal: 6.75, total: placed.body.result.total });
    // The same refusals as the order: an unknown product.
    const bad = await server.api.post('/api/services/app/Store/QuoteOrder', { token: customer, body: { ...body, products: [{ productId: 999999, quantity: 1 }] } });
    expect(bad.status).toBe(400);
    expect((await server.api.post('/api/services/app/Store/QuoteOrder', { body })).status).toBe(401);
  });
});

describe('cash with delivery', () => {
  it("is paid on delivery, not 'at the branch'; the quote includes the delivery fee as the order does", async () => {
    const address = await server.api.post('/api/services/app/CustomerDeliveryAddress/AddCustomerDeliveryAddress', {
      token: customer, body: { regionId: 1, areaId: 2, block: '4', street: '12', house_no: '7', floor: '2' },
    });
    expect(address.status, JSON.stringify(address.body)).toBe(200);
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: false, isHomeDeliver: true, isDeliveryNeed: true, deliveryAddressId: address.body.result.id },
      products: [{ productId: menu.product('Cold Brew'), quantity: 2, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
    };
    const quote = await server.api.post('/api/services/app/Store/QuoteOrder', { token: customer, body });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.result.deliveryFee).toBeGreaterThan(0);
    const res = await server.api.post(SAVE, { token: customer, body, headers: { 'idempotency-key': `cod-${++keySeq}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.message).toBe('Your order has been placed. Please pay cash on delivery.');
    expect(res.body.result.total).toBe(quote.body.result.total);
  });
});
