import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import * as t from '../../server/db/schema';

/**
 * Issue 24's last shop items on the server: the link holder pays again without a session (only
 * that order), and the order's delivery address reads its area in the shop's language.
 */
const SAVE = '/api/services/app/Store/SaveNewOrderVS1';
const AGAIN = '/api/services/app/Store/PayOrderAgain';
const DETAIL = '/api/services/app/Store/GetOrderDetail';

let server: TestServer;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let keySeq = 0;

beforeAll(async () => {
  server = await startTestServer();
  menu = await seededMenu(server);
}, 120_000);
afterAll(async () => { await server?.close(); });

async function order(token: string, extra: Record<string, unknown> = {}, paymentSystem = 1) {
  const body = {
    brandId: 7, paymentSystem, deliveryOptions: { branchId: 1, isPickup: true },
    products: [{ productId: menu.product('Espresso'), quantity: 1 }], ...extra,
  };
  const res = await server.api.post(SAVE, { token, body, headers: { 'idempotency-key': `close-${++keySeq}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { orderId: number; ohash: string; paymentUrl: string | null };
}
const post = (url: string) => server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
const paymentRows = (orderId: number) => server.database.db.select().from(t.payments).where(eq(t.payments.orderId, orderId));

describe('Pay again for the holder of the tracking link', () => {
  it('without a session, the order and its ohash in the query pay that order again; nothing else', async () => {
    const guest = await server.api.guestToken();
    const o = await order(guest, { guestCustomerName: 'Huda', guestPhoneNumber: '+96550000043' });
    const other = await order(guest, { guestCustomerName: 'Huda', guestPhoneNumber: '+96550000043' });
    expect((await post(`${o.paymentUrl}/cancel`)).statusCode).toBe(303);
    expect((await post(`${other.paymentUrl}/cancel`)).statusCode).toBe(303);

    // Before: any PayOrderAgain without a token was 401, so the link's holder was sent to sign in.
    const holder = await server.api.post(AGAIN, { query: { orderId: o.orderId, ohash: o.ohash }, body: { orderId: o.orderId, ohash: o.ohash } });
    expect(holder.status, JSON.stringify(holder.body)).toBe(200);
    expect(holder.body.result.paymentUrl).toMatch(/^\/payments\/sandbox\//);
    expect((await paymentRows(o.orderId)).filter((p) => p.status === 'pending')).toHaveLength(1);

    // Without the ohash, a wrong one, or one order's ohash naming another order: the same 401, nothing written.
    const before = (await paymentRows(other.orderId)).length;
    for (const query of [{ orderId: o.orderId }, { orderId: o.orderId, ohash: `${o.ohash}x` }, { orderId: other.orderId, ohash: o.ohash }, {}]) {
      const refused = await server.api.post(AGAIN, { query, body: { orderId: other.orderId } });
      expect(refused.status, JSON.stringify(query)).toBe(401);
    }
    // Admitted by one order's link, the body naming another order is that other order's 404: it pays nothing else.
    const smuggled = await server.api.post(AGAIN, { query: { orderId: o.orderId, ohash: o.ohash }, body: { orderId: other.orderId } });
    expect(smuggled.status).toBe(404);
    expect((await paymentRows(other.orderId)).length).toBe(before);
  });
});

describe("The order's delivery address in the shop's language", () => {
  it("reads the area and region in Arabic ('بيان') on /track, as the picker named them", async () => {
    const customer = await server.api.login('customer');
    const areas = await server.api.get('/api/services/app/Country/GetDeliveryAreasTreeByBrandIdForShop', { query: { brandId: 7 } });
    const region = areas.body.result.find((r: any) => r.children?.some((c: any) => c?.name === 'Bayan'));
    const bayan = region.children.find((c: any) => c.name === 'Bayan');
    const o = await order(customer, {
      deliveryOptions: { branchId: 1, isDeliveryNeed: true },
      customerDeliveryAddress: { regionId: region.id, region: region.name, areaId: bayan.id, area: bayan.name, block: '3', street: '12', house_no: '7', latitude: 29.3, longitude: 48.05 },
    }, 2);
    const ar = await server.api.get(DETAIL, { token: customer, query: { orderId: o.orderId }, headers: { 'accept-language': 'ar' } });
    expect(ar.status, JSON.stringify(ar.body)).toBe(200);
    expect(ar.body.result.deliveryAddress).toMatchObject({ areaId: bayan.id, area: 'بيان', block: '3' });
    expect(ar.body.result.deliveryAddress.region).not.toBe(region.name);
    // English readers (and the kept snapshot) keep the English name.
    const en = await server.api.get(DETAIL, { token: customer, query: { orderId: o.orderId }, headers: { 'accept-language': 'en' } });
    expect(en.body.result.deliveryAddress).toMatchObject({ area: 'Bayan', region: region.name });
  });
});
