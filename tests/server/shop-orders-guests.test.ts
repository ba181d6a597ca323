import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import { TEXT } from '../../domain/constants';
import { cart, customer, db, DETAIL, expectRefused, guest, HISTORY, orderRow, otherCustomer, save, useShopOrders } from '../support/shopOrders';

/** SaveNewOrderVS1 for guests, and the customer's order history and detail (shop-orders.test.ts: pricing, refusals, delivery, points, idempotency). */
const server = useShopOrders();

describe('guests', () => {
  const guestCart = (extra: Record<string, unknown> = {}) => cart({ guestCustomerName: 'Guest Ghada', guestPhoneNumber: '+965 5123 4567', ...extra });

  it('need a name and a valid phone (SPEC.md 5 messages)', async () => {
    const res = await expectRefused(guest, cart(), 400, TEXT.guest.phoneRequired);
    expect(res.body.error!.validationErrors!.map((v) => v.message)).toEqual([TEXT.guest.phoneRequired, TEXT.guest.nameRequired]);
    await expectRefused(guest, cart({ guestCustomerName: 'G', guestPhoneNumber: '12' }), 400, TEXT.guest.invalidPhone);
    await expectRefused(guest, cart({ guestPhoneNumber: '+96551234567', guestCustomerName: '  ' }), 400, TEXT.guest.nameRequired);
  });

  it('place an order and read it only with its ohash; never list orders', async () => {
    const res = await save(guest, guestCart());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { orderId, ohash } = res.body.result;
    expect(await orderRow(orderId)).toMatchObject({ userId: 18, guestCustomerName: 'Guest Ghada', guestPhoneNumber: '+96551234567' });
    const ok = await server.api.get(DETAIL, { token: guest, query: { orderId, ohash } });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ id: orderId, total: 5.25, isPaid: false, items: [{ name: 'Cappuccino' }, { name: 'Pistachio Cookie' }] });
    expect((await server.api.get(DETAIL, { token: guest, query: { orderId } })).status).toBe(404);
    expect((await server.api.get(DETAIL, { token: guest, query: { orderId, ohash: `${ohash.slice(0, -1)}${ohash.endsWith('x') ? 'y' : 'x'}` } })).status).toBe(404);
    const history = await server.api.get(HISTORY, { token: guest });
    expect(history.body.result).toEqual({ totalCount: 0, orderHistoryItems: [] });
  });

  it("cannot read a customer's order by id", async () => {
    const mine = await save(customer, cart());
    expect((await server.api.get(DETAIL, { token: guest, query: { orderId: mine.body.result.orderId } })).status).toBe(404);
  });

  it("send their address with the order, never another guest's stored one; stored guest data is cleared after the order", async () => {
    // Rows under user 18 (e.g. from older clients) belong to whichever guest stored them.
    const [stored] = await db().insert(t.customerAddresses).values({ userId: 18, regionId: 1, areaId: 2, block: '1', street: '2', houseNo: '3', latitude: 29.3, longitude: 48 }).returning();
    const delivery = { branchId: 1, isHomeDeliver: true, deliveryAddressId: stored.id };
    await expectRefused(guest, { ...guestCart(), deliveryOptions: delivery }, 400, 'Please choose a delivery address.');
    const temp = await server.api.post('/api/services/app/CustomerDeliveryAddress/AddCustomerDeliveryAddress', {
      token: guest, body: { regionId: 1, areaId: 2, block: '5', street: '6', house_no: '7' },
    });
    expect(temp.body.result).toMatchObject({ id: 10, userId: 18, block: '5' });
    const res = await save(guest, { ...guestCart({ customerDeliveryAddress: temp.body.result }), deliveryOptions: { ...delivery, deliveryAddressId: temp.body.result.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await db().select().from(t.customerAddresses).where(eq(t.customerAddresses.userId, 18))).toEqual([]);
    expect((await orderRow(res.body.result.orderId)).deliveryAddress).toMatchObject({ id: null, areaId: 2, block: '5', street: '6', house_no: '7' });
  });

  it('may deliver to an address typed at checkout', async () => {
    const res = await save(guest, { ...guestCart({ customerDeliveryAddress: { regionId: 1, areaId: 2, block: '9', street: '8', house_no: '7' } }), deliveryOptions: { branchId: 1, isHomeDeliver: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await orderRow(res.body.result.orderId)).deliveryAddress).toMatchObject({ block: '9' });
    const bad = await expectRefused(guest, { ...guestCart({ customerDeliveryAddress: { regionId: 1, areaId: 2, block: 'x', street: '', house_no: '7' } }), deliveryOptions: { branchId: 1, isHomeDeliver: true } }, 400, TEXT.validationError);
    expect(bad.body.error!.validationErrors!.map((v) => v.message)).toEqual(['Block Number must contain digits only', TEXT.address.street]);
  });
});

describe('order history and detail', () => {
  it('lists the caller\'s own orders, newest first, 5 by default', async () => {
    // Six orders of the customer's own, whatever this file placed before.
    for (let i = 0; i < 6; i++) expect((await save(customer, cart())).status).toBe(200);
    const res = await server.api.get(HISTORY, { token: customer, query: { brandId: 7 } });
    expect(res.status).toBe(200);
    const { totalCount, orderHistoryItems } = res.body.result;
    expect(orderHistoryItems).toHaveLength(5);
    expect(totalCount).toBeGreaterThan(5);
    expect(orderHistoryItems[0]).toEqual({ id: expect.any(Number), date: expect.any(String), orderNumber: expect.stringMatching(/^B1-/), amount: expect.any(Number), status: 'pending', isPaid: expect.any(Boolean), deliverySystem: expect.any(String), branchName: 'Salmiya' });
    expect(orderHistoryItems[0].id).toBeGreaterThan(orderHistoryItems[1].id);
    const rows = await db().select({ userId: t.orders.userId }).from(t.orders);
    expect(totalCount).toBe(rows.filter((r) => r.userId === 5).length);
    const page2 = await server.api.get(HISTORY, { token: customer, query: { skip: 5, take: 2 } });
    expect(page2.body.result.orderHistoryItems).toHaveLength(2);
    expect(page2.body.result.orderHistoryItems[0].id).toBeLessThan(orderHistoryItems[4].id);
    const theirs = await server.api.get(HISTORY, { token: otherCustomer });
    expect(theirs.body.result.orderHistoryItems.every((o: { id: number }) => !orderHistoryItems.some((m: { id: number }) => m.id === o.id))).toBe(true);
  });

  it('shows the owner their order without the ohash, and nobody else', async () => {
    const res = await save(customer, cart());
    const { orderId } = res.body.result;
    const mine = await server.api.get(DETAIL, { token: customer, query: { orderId } });
    expect(mine.status).toBe(200);
    expect(mine.body.result).toMatchObject({ id: orderId, orderNumber: res.body.result.orderNumber, paymentSystemName: 'Cash at branch', subtotal: 5.25, total: 5.25, branchName: 'Salmiya' });
    expect(mine.body.result.items[0].options.map((o: { name: string }) => o.name)).toEqual(['Large', 'Oat', 'Extra shot']);
    expect((await server.api.get(DETAIL, { token: otherCustomer, query: { orderId } })).status).toBe(404);
    expect((await server.api.get(DETAIL, { token: otherCustomer, query: { orderId: 999999 } })).status).toBe(404);
  });
});
