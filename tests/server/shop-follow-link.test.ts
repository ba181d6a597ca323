import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { orderItems, users } from '../../server/db/schema';
import { hashPassword } from '../../server/auth/password';
import { insertOrder, type TestOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { GUEST_USER_ID } from '../../domain/constants';

/**
 * Issue 24, "a guest's tracking link works only in the browser that placed the order": whoever
 * holds an order's ohash reads that order's tracker (status, items, totals, branch), with or
 * without a token, and nothing of the customer's own (name, phone, address, car, points). A wrong
 * ohash answers exactly as an unknown order does; no ohash without a token is the 401 it was.
 */
const DETAIL = '/api/services/app/Store/GetOrderDetail';
const STAFF_DETAIL = '/api/services/app/Store/GetOrderDetailAsBranchUser';
const hasMesh = existsSync('.mesh/index.ts');
const token: Record<string, string> = {};
let order: TestOrder;

/** What the customer gave with the order: none of it may reach the link's holder. */
const PRIVATE = { name: 'Huda Private', phone: '+96550000042', car: 'White Toyota 77123', text: 'Ring the bell twice', block: '913' };

const server = useServer({ gateway: hasMesh });
beforeAll(async () => {
  for (const who of ['customer', 'branchuser']) token[who] = await server.api.login(who);
  token.guest = await server.api.guestToken();
  await server.database.db.insert(users).values({ userName: 'follower', fullName: 'Fahad Follower', role: 'CUSTOMER', phoneNumber: '+96550000071', passwordHash: await hashPassword('123qwe') });
  token.other = await server.api.login('follower');
  order = await insertOrder(server, {
    userId: 5, deliverySystem: 'delivery', status: 'accepted', acceptedAt: new Date(),
    guestCustomerName: PRIVATE.name, guestPhoneNumber: PRIVATE.phone, carDetails: PRIVATE.car, deliveryText: PRIVATE.text,
    deliveryAddress: {
      id: null, regionId: 1, region: 'Hawalli', areaId: 2, area: 'Bayan', block: PRIVATE.block, street: '12', house_no: '7',
      buildingNumber: null, floor: null, jadda: null, avenue: null, apartment: null, instructions: null, latitude: 29.3, longitude: 48,
    }, pointsRedeemed: 100,
  });
  await server.database.db.update(orderItems).set({ isRedeem: true, redeemPoints: 100 }).where(eq(orderItems.orderId, order.id));
}, 120_000);

const get = (query: Record<string, unknown>, who?: string) => server.api.get(DETAIL, { ...(who ? { token: token[who] } : {}), query });
const wrong = (ohash: string) => `${ohash.slice(0, -1)}${ohash.endsWith('a') ? 'b' : 'a'}`;

/** The tracker: the order's own facts, and none of the customer's. */
function expectTracker(result: any) {
  expect(result).toMatchObject({
    id: order.id, orderNumber: order.orderNumber, status: 'accepted', branchName: 'Salmiya', deliverySystem: 'delivery',
    subtotal: 2.5, total: 2.5, isPaid: false, items: [{ quantity: 2, lineTotal: 2.5, isRedeem: true, redeemPoints: null }],
    guestCustomerName: null, guestPhoneNumber: null, deliveryAddress: null, carDetails: null, deliveryText: null, pointsRedeemed: null,
  });
  const text = JSON.stringify(result);
  for (const secret of Object.values(PRIVATE)) expect(text).not.toContain(secret);
}

describe('Store/GetOrderDetail by the ohash alone', () => {
  it('without a token, the right ohash reads the order\'s tracker and nothing of the customer\'s', async () => {
    const res = await get({ orderId: order.id, ohash: order.ohash });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectTracker(res.body.result);
  });

  it('without a token, a wrong ohash answers exactly as an unknown order, and no ohash is the 401 as before', async () => {
    const unknown = await get({ orderId: 999_999, ohash: order.ohash });
    const wrongHash = await get({ orderId: order.id, ohash: wrong(order.ohash) });
    const otherOrders = await get({ orderId: order.id, ohash: (await insertOrder(server, { userId: GUEST_USER_ID })).ohash });
    const none = await get({ orderId: order.id });
    for (const res of [unknown, wrongHash, otherOrders, none]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unknown.body);
    }
    // Before any input check, as every refused caller: a malformed request with an ohash is the same 401.
    expect((await get({ orderId: 'x', ohash: order.ohash })).status).toBe(401);
    expect((await get({ orderId: order.id, ohash: [order.ohash, order.ohash] })).status).toBe(401);
  });

  it('a guest, or another signed-in customer, holding the ohash reads the tracker only; a wrong ohash is the unknown order\'s 404', async () => {
    for (const who of ['guest', 'other']) {
      const res = await get({ orderId: order.id, ohash: order.ohash }, who);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectTracker(res.body.result);
      const unknown = await get({ orderId: 999_999, ohash: order.ohash }, who);
      const wrongHash = await get({ orderId: order.id, ohash: wrong(order.ohash) }, who);
      expect([unknown.status, wrongHash.status]).toEqual([404, 404]);
      expect(wrongHash.body).toEqual(unknown.body);
    }
  });

  it('the owner still reads the whole order, without the ohash; staff read it in full in their scope, and are refused the shop\'s call', async () => {
    const own = await get({ orderId: order.id }, 'customer');
    expect(own.status).toBe(200);
    expect(own.body.result).toMatchObject({
      guestCustomerName: PRIVATE.name, guestPhoneNumber: PRIVATE.phone, carDetails: PRIVATE.car, deliveryText: PRIVATE.text,
      deliveryAddress: { block: PRIVATE.block }, pointsRedeemed: 100, items: [{ isRedeem: true, redeemPoints: 100 }],
    });
    const staff = await server.api.get(STAFF_DETAIL, { token: token.branchuser, query: { orderId: order.id } });
    expect(staff.body.result).toMatchObject({ guestCustomerName: PRIVATE.name, carDetails: PRIVATE.car, pointsRedeemed: 100 });
    expect((await get({ orderId: order.id, ohash: order.ohash }, 'branchuser')).status).toBe(403);
  });

  it.skipIf(!hasMesh)('through the gateway without a token: the tracker with the ohash, UNAUTHENTICATED without it', async () => {
    const ask = async (ohash: string | null) => (await fetch(`${server.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query T($orderId: Int!, $ohash: String) { Store_GetOrderDetail(orderId: $orderId, ohash: $ohash) { id status total guestCustomerName carDetails items { name quantity } } }',
        variables: { orderId: order.id, ohash },
      }),
    })).json();
    const held = await ask(order.ohash);
    expect(held.errors).toBeUndefined();
    expect(held.data.Store_GetOrderDetail).toMatchObject({ id: order.id, status: 'accepted', total: 2.5, guestCustomerName: null, carDetails: null });
    for (const ohash of [null, wrong(order.ohash)]) {
      const refused = await ask(ohash);
      expect(refused.errors?.[0]?.extensions?.status).toBe(401);
      expect(refused.data?.Store_GetOrderDetail ?? null).toBeNull();
    }
  });
});
