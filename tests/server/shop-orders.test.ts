import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import { localDayAndMinutes } from '../../domain/schedule';
import { countRows } from '../support/server';
import { cart, customer, db, expectRefused, guest, menu, orderRow, otherCustomer, save, SAVE, useShopOrders } from '../support/shopOrders';

const server = useShopOrders();

describe('SaveNewOrderVS1: pricing on the server', () => {
  it('places a cash pickup order at the server prices and answers with the order response', async () => {
    const res = await save(customer, cart());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ isSuccessed: true, isPaid: false, paymentUrl: null, total: 5.25 });
    expect(res.body.result.message).toMatch(/pay at the branch/);
    expect(res.body.result.orderNumber).toMatch(/^B1-\d{6}$/);
    expect(res.body.result.ohash.length).toBeGreaterThanOrEqual(32);
    const order = await orderRow(res.body.result.orderId);
    expect(order).toMatchObject({ userId: 5, brandId: 7, branchId: 1, deliverySystem: 'pickup', subtotal: '5.250', tax: '0.000', deliveryFee: '0.000', discount: '0.000', total: '5.250', status: 'pending', payment: 'unpaid', paymentSystemId: 2 });
    const items = await db().select().from(t.orderItems).where(eq(t.orderItems.orderId, order.id));
    expect(items.map((i) => [i.name, i.quantity, i.unitPrice, i.lineTotal])).toEqual([
      ['Cappuccino', 2, '2.300', '4.600'],
      ['Pistachio Cookie', 1, '0.650', '0.650'],
    ]);
    expect((items[0].options as { name: string }[]).map((o) => o.name)).toEqual(['Large', 'Oat', 'Extra shot']);
    const [payment] = await db().select().from(t.payments).where(eq(t.payments.orderId, order.id));
    expect(payment).toMatchObject({ provider: 'cash', status: 'pending', amount: '5.250' });
  });

  it('ignores tampered client prices, points and discounts', async () => {
    const body = cart({ discountPercent: 90, isDiscounted: false, price: 0.001, total: 0.001 });
    (body.products[0] as Record<string, unknown>).price = 0.001;
    (body.products[0] as Record<string, unknown>).redeemPoints = 0;
    (body.products[0].additions![0] as Record<string, unknown>).price = -5;
    const res = await save(customer, body);
    expect(res.status).toBe(200);
    expect(res.body.result.total).toBe(5.25);
    expect((await orderRow(res.body.result.orderId)).total).toBe('5.250');
  });

  it('adds the brand taxes on the subtotal', async () => {
    await db().update(t.taxes).set({ percent: '5' }).where(eq(t.taxes.brandId, 7));
    try {
      const res = await save(customer, cart());
      const order = await orderRow(res.body.result.orderId);
      expect(order).toMatchObject({ subtotal: '5.250', tax: '0.263', total: '5.513' });
    } finally {
      await db().update(t.taxes).set({ percent: '0' }).where(eq(t.taxes.brandId, 7));
    }
  });

  it('publishes order.created after commit', async () => {
    const seen: number[] = [];
    const off = server.events.subscribe((e) => { if (e.type === 'order.created') seen.push(e.orderId); });
    try {
      const res = await save(customer, cart());
      await vi.waitFor(() => expect(seen).toContain(res.body.result.orderId), { timeout: 30_000, interval: 20 });
    } finally {
      off();
    }
  });

  it('reads nulls as absent: the default payment method, no car, no discount', async () => {
    const res = await save(customer, cart({
      paymentSystem: null, carId: null, carDetails: null, customerDeliveryAddress: null, discountGroupId: null, discountPercent: null,
      isDiscounted: null, IsArmadaDelivery: null, tokenid: null, deliverySystem: null, deliveryText: null, guestPhoneNumber: null,
    }, { deliveryAddressId: null, isCarService: null, isHomeDeliver: null }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await orderRow(res.body.result.orderId)).toMatchObject({ paymentSystemId: 2, deliverySystem: 'pickup', discount: '0.000', total: '5.250' });
  });

  it('needs a signed-in customer', async () => {
    expect((await server.api.post(SAVE, { body: cart() })).status).toBe(401);
    expect((await save(await server.api.login('admin'), cart())).status).toBe(403);
  });
});

describe('SaveNewOrderVS1: refused carts write nothing', () => {
  it('an empty cart', () => expectRefused(customer, cart({ products: [] }), 400, 'Your cart is empty.'));

  it('a required option group left out', () => expectRefused(customer, cart({
    products: [{ productId: menu.product('Cappuccino'), quantity: 1, additions: [{ additionId: menu.option('Cappuccino', 'Milk', 'Oat') }] }],
  }), 400, 'Please choose Size for Cappuccino.'));

  it('two options in a single-choice group', () => expectRefused(customer, cart({
    products: [{ productId: menu.product('Cappuccino'), quantity: 1, additions: [
      { additionId: menu.option('Cappuccino', 'Size', 'Large') }, { additionId: menu.option('Cappuccino', 'Size', 'Small') },
    ] }],
  }), 400, 'Please choose only one Size for Cappuccino.'));

  it('an unknown product, a product of another brand, an option of another product', async () => {
    await expectRefused(customer, cart({ products: [{ productId: 99999, quantity: 1 }] }), 400, 'Product #99999 is not on the menu of this brand.');
    await expectRefused(customer, cart({ products: [{ productId: menu.product('Karak Tea', 8), quantity: 1, additions: [{ additionId: menu.option('Karak Tea', 'Size', 'Small', 8) }] }] }), 400, /is not on the menu of this brand/);
    await expectRefused(customer, cart({ products: [{ productId: menu.product('Espresso'), quantity: 1, additions: [{ additionId: menu.option('Cappuccino', 'Size', 'Large') }] }] }), 400, /is not an option of Espresso/);
  });

  it('a hidden product, a product or option switched off for the branch', async () => {
    const cookie = menu.product('Pistachio Cookie');
    await db().update(t.products).set({ isHidden: true }).where(eq(t.products.id, cookie));
    await expectRefused(customer, cart(), 400, 'Pistachio Cookie is not available at this branch right now.');
    await db().update(t.products).set({ isHidden: false }).where(eq(t.products.id, cookie));

    await db().insert(t.branchHiddenProducts).values({ branchId: 1, productId: cookie });
    await expectRefused(customer, cart(), 400, 'Pistachio Cookie is not available at this branch right now.');
    await db().delete(t.branchHiddenProducts).where(eq(t.branchHiddenProducts.productId, cookie));

    const oat = menu.option('Cappuccino', 'Milk', 'Oat');
    await db().insert(t.branchHiddenOptions).values({ branchId: 1, optionItemId: oat });
    await expectRefused(customer, cart(), 400, 'Oat is not available at this branch right now.');
    await db().delete(t.branchHiddenOptions).where(eq(t.branchHiddenOptions.optionItemId, oat));
    expect((await save(customer, cart())).status).toBe(200);
  });

  it('a quantity outside 1..69', async () => {
    for (const quantity of [0, 70, -1]) {
      await expectRefused(customer, cart({ products: [{ productId: menu.product('Pistachio Cookie'), quantity }] }), 400, 'The quantity of Pistachio Cookie must be between 1 and 69.');
    }
    expect((await save(customer, cart({ products: [{ productId: menu.product('Pistachio Cookie'), quantity: 69 }] }))).status).toBe(200);
    await expectRefused(customer, cart({ products: [{ productId: menu.product('Pistachio Cookie'), quantity: 1.5 }] }), 400, 'Your request is not valid!');
  });

  it('a busy branch', async () => {
    await db().update(t.branches).set({ isBusy: true }).where(eq(t.branches.id, 1));
    try {
      await expectRefused(customer, cart(), 400, 'The branch is busy right now and is not taking orders. Please try again later.');
    } finally {
      await db().update(t.branches).set({ isBusy: false }).where(eq(t.branches.id, 1));
    }
  });

  it('a branch closed by its online-ordering schedule (Asia/Kuwait)', async () => {
    const saved = await db().select().from(t.branchSchedules).where(eq(t.branchSchedules.branchId, 1));
    const today = localDayAndMinutes(new Date(), 'Asia/Kuwait').dayOfWeek;
    await db().delete(t.branchSchedules).where(eq(t.branchSchedules.branchId, 1));
    await db().insert(t.branchSchedules).values({ branchId: 1, dayOfWeek: (today + 3) % 7, openTime: '00:00', closeTime: '23:59' });
    try {
      await expectRefused(customer, cart(), 400, /closed for online orders/);
    } finally {
      await db().delete(t.branchSchedules).where(eq(t.branchSchedules.branchId, 1));
      await db().insert(t.branchSchedules).values(saved);
    }
    expect((await save(customer, cart())).status).toBe(200);
  });

  it('a branch of another brand', () => expectRefused(customer, cart({}, { branchId: 2 }), 400, 'This branch does not belong to the brand.'));

  it('a payment method the brand has not enabled, or that does not exist', async () => {
    await db().update(t.brandPayments).set({ isActive: false }).where(and(eq(t.brandPayments.brandId, 7), eq(t.brandPayments.paymentSystemId, 3)));
    try {
      await expectRefused(customer, cart({ paymentSystem: 3 }), 400, 'This payment method is not available for this brand.');
      await expectRefused(customer, cart({ paymentSystem: 999 }), 400, 'This payment method is not available for this brand.');
    } finally {
      await db().update(t.brandPayments).set({ isActive: true }).where(eq(t.brandPayments.brandId, 7));
    }
  });

  it('two delivery modes at once', () => expectRefused(customer, cart({}, { isCarService: true }), 400, 'Please choose one of pickup, car service or delivery.'));
});

describe('SaveNewOrderVS1: delivery and car service', () => {
  const addressBody = { regionId: 1, areaId: 2, block: '4', street: '12', house_no: '7', floor: '2' };
  let addressId: number;
  beforeAll(async () => {
    const res = await server.api.post('/api/services/app/CustomerDeliveryAddress/AddCustomerDeliveryAddress', { token: customer, body: addressBody });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    addressId = res.body.result.id;
  });
  const deliveryOf = (id: number | null, extra: Record<string, unknown> = {}) => cart(extra, { isPickup: false, isHomeDeliver: true, isDeliveryNeed: true, deliveryAddressId: id });

  it('refuses delivery without an address of the caller', async () => {
    await expectRefused(customer, deliveryOf(null), 400, 'Please choose a delivery address.');
    const theirs = await server.api.post('/api/services/app/CustomerDeliveryAddress/AddCustomerDeliveryAddress', { token: otherCustomer, body: addressBody });
    await expectRefused(customer, deliveryOf(theirs.body.result.id), 400, 'Please choose a delivery address.');
  });

  it("charges the area's delivery fee, the same as GetDeliveryFeeForOrderingCustomer, and keeps a copy of the address", async () => {
    const quote = await server.api.get('/api/services/app/BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer', { query: { BrandId: 7, AreaId: 2, Amount: 5.25 } });
    expect(quote.status).toBe(200);
    expect(quote.body.result.deliveryFee).toBeGreaterThan(0);
    const res = await save(customer, deliveryOf(addressId));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const order = await orderRow(res.body.result.orderId);
    expect(Number(order.deliveryFee)).toBe(quote.body.result.deliveryFee);
    expect(Number(order.total)).toBeCloseTo(5.25 + quote.body.result.deliveryFee, 3);
    expect(order).toMatchObject({ deliverySystem: 'delivery', deliveryAddressId: addressId, deliveryAddress: expect.objectContaining({ areaId: 2, block: '4', street: '12', house_no: '7' }) });
  });

  it('delivers free at or above the free-delivery amount', async () => {
    const big = deliveryOf(addressId, { products: [{ productId: menu.product('Pistachio Cookie'), quantity: 25 }] });
    const res = await save(customer, big);
    const order = await orderRow(res.body.result.orderId);
    expect(order).toMatchObject({ subtotal: '16.250', deliveryFee: '0.000', total: '16.250' });
  });

  it('refuses an area the brand does not deliver to', async () => {
    await db().insert(t.brandHiddenDeliveryAreas).values({ brandId: 7, areaId: 2 });
    try {
      await expectRefused(customer, deliveryOf(addressId), 400, 'Sorry, we do not deliver to this area.');
    } finally {
      await db().delete(t.brandHiddenDeliveryAreas).where(eq(t.brandHiddenDeliveryAreas.areaId, 2));
    }
  });

  it("car service takes the caller's car, or car details typed in", async () => {
    const car = await server.api.post('/api/services/app/Cars/AddCustomerCar', { token: customer, query: { carBrandId: 1, carColorId: 1, carTypeId: 2, plateNumber: '12345' } });
    expect(car.status).toBe(200);
    const withCar = await save(customer, cart({ carId: car.body.result.id }, { isPickup: false, isCarService: true }));
    expect(await orderRow(withCar.body.result.orderId)).toMatchObject({ deliverySystem: 'carService', carId: car.body.result.id, carDetails: 'White Toyota SUV, plate 12345' });
    const typed = await save(customer, cart({ carDetails: 'Red Kia, 555' }, { isPickup: false, isCarService: true }));
    expect((await orderRow(typed.body.result.orderId)).carDetails).toBe('Red Kia, 555');
    await expectRefused(customer, cart({}, { isPickup: false, isCarService: true }), 400, 'Please choose your car for car service.');
  });
});

describe('SaveNewOrderVS1: discounts and points', () => {
  let groupId: number;
  let foreignGroupId: number;
  beforeAll(async () => {
    [{ id: groupId }] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Friends', discountPercent: '10' }).returning();
    [{ id: foreignGroupId }] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Staff', discountPercent: '50' }).returning();
    await db().insert(t.customerGroupMembers).values({ groupId, userId: 5 });
  });
  beforeEach(async () => {
    await db().update(t.customerWallets).set({ points: 120 }).where(and(eq(t.customerWallets.userId, 5), eq(t.customerWallets.brandId, 7)));
  });

  it("applies the percent of the customer's group, whatever percent the client sends", async () => {
    const res = await save(customer, cart({ isDiscounted: true, discountGroupId: groupId, discountPercent: 99 }));
    expect(res.status).toBe(200);
    expect(await orderRow(res.body.result.orderId)).toMatchObject({ subtotal: '5.250', discount: '0.525', total: '4.725', discountGroupId: groupId });
  });

  it('refuses a discount of a group the customer is not in', async () => {
    await expectRefused(customer, cart({ isDiscounted: true, discountGroupId: foreignGroupId, discountPercent: 50 }), 400, 'This discount is not available to you.');
    await expectRefused(customer, cart({ isDiscounted: true, discountGroupId: 424242 }), 400, 'This discount is not available to you.');
    await expectRefused(guest, cart({ isDiscounted: true, discountGroupId: groupId, guestCustomerName: 'G', guestPhoneNumber: '+96551234567' }), 400, 'This discount is not available to you.');
  });

  it('redeems a product for its points: free of charge, wallet and ledger written', async () => {
    const res = await save(customer, cart({ products: [{ productId: menu.product('Espresso'), quantity: 1, isRedeem: true, redeemPoints: 1 }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ isPaid: true, paymentUrl: null, total: 0 });
    const order = await orderRow(res.body.result.orderId);
    expect(order).toMatchObject({ total: '0.000', pointsRedeemed: 100, payment: 'paid' });
    const [wallet] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, 5), eq(t.customerWallets.brandId, 7)));
    expect(wallet.points).toBe(20);
    const ledger = await db().select().from(t.walletLedger).where(eq(t.walletLedger.orderId, order.id));
    expect(ledger).toMatchObject([{ userId: 5, brandId: 7, account: 'points', amount: '-100.000' }]);
  });

  it('charges the options of a redeemed product', async () => {
    const res = await save(customer, cart({ products: [{ productId: menu.product('Espresso'), quantity: 1, isRedeem: true, additions: [{ additionId: menu.option('Espresso', 'Additions', 'Vanilla syrup') }] }] }));
    expect(res.body.result).toMatchObject({ isPaid: false, total: 0.15 });
  });

  it('refuses too few points, a product that cannot be redeemed, and a guest redeeming', async () => {
    await expectRefused(customer, cart({ products: [{ productId: menu.product('Espresso'), quantity: 2, isRedeem: true }] }), 400, 'You do not have enough points to redeem these products.');
    await expectRefused(customer, cart({ products: [{ productId: menu.product('Pistachio Cookie'), quantity: 1, isRedeem: true }] }), 400, 'Pistachio Cookie cannot be redeemed with points.');
    await expectRefused(guest, cart({ guestCustomerName: 'G', guestPhoneNumber: '+96551234567', products: [{ productId: menu.product('Espresso'), quantity: 1, isRedeem: true }] }), 400, 'Please log in to redeem points.');
  });

  it('never spends the same points twice under concurrency', async () => {
    const redeem = () => save(customer, cart({ products: [{ productId: menu.product('Espresso'), quantity: 1, isRedeem: true }] }));
    const results = await Promise.all([redeem(), redeem(), redeem()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const [wallet] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, 5), eq(t.customerWallets.brandId, 7)));
    expect(wallet.points).toBe(20);
  });
});

describe('SaveNewOrderVS1: idempotency', () => {
  it('same key and body twice in a row: one order, the same response', async () => {
    const before = await countRows(server, 'orders');
    const first = await save(customer, cart(), 'same-key-1');
    const second = await save(customer, cart(), 'same-key-1');
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await countRows(server, 'orders')).toBe(before + 1);
  });

  it('same key and body at once: one order, the same response for all', async () => {
    const before = await countRows(server, 'orders');
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => save(customer, cart(), 'same-key-2')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    expect(await countRows(server, 'orders')).toBe(before + 1);
    expect(await countRows(server, 'payments')).toBeGreaterThan(0);
  });

  it('the same body with its keys in another order is the same request', async () => {
    const body = cart();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await save(customer, body, 'same-key-3');
    const second = await save(customer, reordered, 'same-key-3');
    expect(second.body.result.orderId).toBe(first.body.result.orderId);
  });

  it('same key with another body: 422, nothing written', async () => {
    await save(customer, cart(), 'same-key-4');
    const before = await countRows(server, 'orders');
    const res = await save(customer, cart({ products: [{ productId: menu.product('Pistachio Cookie'), quantity: 3 }] }), 'same-key-4');
    expect(res.status).toBe(422);
    expect(res.body.error!.message).toMatch(/Idempotency-Key/);
    expect(await countRows(server, 'orders')).toBe(before);
  });

  it('keys belong to one user; without a key every request is a new order', async () => {
    const mine = await save(customer, cart(), 'shared-key');
    const theirs = await save(otherCustomer, cart(), 'shared-key');
    expect(theirs.body.result.orderId).not.toBe(mine.body.result.orderId);
    const a = await save(customer, cart(), null);
    const b = await save(customer, cart(), null);
    expect(a.body.result.orderId).not.toBe(b.body.result.orderId);
  });

  it('recognises the unique index that backs the key up, for the loser of a race', async () => {
    const { uniqueViolation } = await import('../../server/db/uniqueViolation');
    const first = await save(customer, cart(), 'backstop-key');
    const [row] = await db().select().from(t.orders).where(eq(t.orders.id, first.body.result.orderId));
    const { id: _id, ...copy } = row;
    const err = await db().insert(t.orders).values(copy).then(() => null, (e: unknown) => e);
    expect(uniqueViolation(err)).toBe('orders_idempotency_uq');
    expect(uniqueViolation(new Error('other'))).toBeNull();
  });

  it('a refused request can be retried with its key once fixed', async () => {
    await db().update(t.branches).set({ isBusy: true }).where(eq(t.branches.id, 1));
    expect((await save(customer, cart(), 'retry-key')).status).toBe(400);
    await db().update(t.branches).set({ isBusy: false }).where(eq(t.branches.id, 1));
    expect((await save(customer, cart(), 'retry-key')).status).toBe(200);
  });
});
