import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { localDayAndMinutes } from '../../domain/schedule';
import { addDays, dayKey, fromZoneInput } from '../../domain/time';
import { ORDER_TEXT } from '../../server/services/store/planOrder';
import type { MenuWindow } from '../../domain/menuWindows';
import { ORDER_AHEAD_DAYS } from '../../domain/orderTime';

/**
 * Issue 25, menus by time of day: a product type, a sub-type or a product may be offered only in
 * windows per weekday on Kuwait's clock. The shop's menu reads take the time the order is for
 * (`at`, now by default, up to 7 days ahead); placement checks the lines again at the order's time.
 * Time is controlled as the other server tests do: the windows are built around the real clock
 * (a window on tomorrow's weekday is never open now), and the reads name the time they ask about.
 */
const PTS = '/api/services/app/ProductTypesAndSubtypes';
const PRODUCTS = '/api/services/app/Products';
const MENU = `${PRODUCTS}/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`;
const PRICES = `${PRODUCTS}/GetProductsPricesForCustomer`;
const DETAIL = `${PTS}/GetProductItemWithSubItemDictionarywithProduct`;
const SAVE = '/api/services/app/Store/SaveNewOrderVS1';
const TABLES = ['product_types', 'product_subtypes', 'products'] as const;

let token: Record<Who, string | undefined>;
let customer: string;
let typeId: number, subtypeId: number, productId: number;
let keys = 0;

/** `hhmm` on Kuwait's clock, `days` after today there, as an ISO time. */
const kuwait = (days: number, hhmm: string) => fromZoneInput(`${addDays(dayKey(new Date()), days)}T${hhmm}`)!;
const weekdayIn = (days: number) => (localDayAndMinutes(new Date()).dayOfWeek + days) % 7;
/** Breakfast, 06:00–11:00, on the weekday `days` from today. */
const breakfastIn = (days: number): MenuWindow => ({ weekday: weekdayIn(days), fromMinute: 6 * 60, toMinute: 11 * 60 });
const wholeDayIn = (days: number): MenuWindow => ({ weekday: weekdayIn(days), fromMinute: 0, toMinute: 24 * 60 });

const server = useServer();
const ok = async (call: Promise<{ status: number; body: any }>) => {
  const res = await call;
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result;
};
const admin = () => ({ token: token.admin });

beforeAll(async () => {
  token = await callerTokens(server);
  customer = await server.api.login('customer');
  // Branch 1 takes online orders all day, every day, so placement meets only the menu's windows.
  await server.database.db.delete(t.branchSchedules).where(eq(t.branchSchedules.branchId, 1));
  await server.database.db.update(t.branches).set({ openTime: '00:00', closeTime: '23:59' }).where(eq(t.branches.id, 1));
  // A breakfast type served tomorrow 06:00–11:00 (by the console's calls), with one product.
  typeId = (await ok(server.api.post(`${PTS}/CreateProductType`, { ...admin(), body: { brandId: 7, name: 'Breakfast', availabilityWindows: [breakfastIn(1)] } }))).id;
  subtypeId = (await ok(server.api.post(`${PTS}/CreateProductSubType`, { ...admin(), body: { typeId, name: 'Eggs' } }))).id;
  productId = (await ok(server.api.post(`${PRODUCTS}/CreateProducts`, { ...admin(), body: { subtypeId, name: 'Shakshuka', price: 2.25 } }))).id;
});

/** The breakfast product as the shop's menu read answers it at `at` (undefined: left out). */
async function onMenu(at?: string) {
  const types = await ok(server.api.get(MENU, { query: { brandId: 7, branchId: 1, ...(at ? { at } : {}) } }));
  return types.find((ty: any) => ty.id === typeId)?.subtypes[0].products.find((p: any) => p.id === productId);
}
const order = (lang?: string) => server.api.post(SAVE, {
  token: customer,
  headers: { 'idempotency-key': `menu-windows-${++keys}`, ...(lang ? { 'accept-language': lang } : {}) },
  body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId, quantity: 1 }] },
});

describe("the shop's menu at the time the order is for", () => {
  it('offers breakfast at 07:00 of its day, not at 12:00, nor on another day', async () => {
    expect(await onMenu(kuwait(1, '07:00'))).toMatchObject({ name: 'Shakshuka', available: true });
    expect(await onMenu(kuwait(1, '06:00'))).toMatchObject({ available: true });
    // Marked, as a sold-out product is: shown, but it cannot be added.
    expect(await onMenu(kuwait(1, '12:00'))).toMatchObject({ available: false, unavailableUntil: null });
    expect(await onMenu(kuwait(1, '11:00'))).toMatchObject({ available: false });
    expect(await onMenu(kuwait(2, '07:00'))).toMatchObject({ available: false });
    // Now (no `at`) is today, not breakfast's weekday.
    expect(await onMenu()).toMatchObject({ available: false });
  });

  it("planning tomorrow's 07:00 breakfast the evening before sees the breakfast menu, on every shop read", async () => {
    // The read asks about tomorrow 07:00 whatever the hour it is made at (21:00 in the story).
    const at = kuwait(1, '07:00');
    expect(await onMenu(at)).toMatchObject({ available: true });
    expect(await ok(server.api.get(DETAIL, { query: { productid: productId, branchId: 1, at } }))).toMatchObject({ name: 'Shakshuka', available: true });
    expect((await ok(server.api.get(DETAIL, { query: { productid: productId, branchId: 1 } }))).available).toBe(false);
    // The cart's check: the same line is unavailable at tomorrow noon.
    const prices = (when: string) => ok(server.api.get(PRICES, { query: { brandId: 7, branchId: 1, productIds: [productId], at: when } }));
    expect((await prices(at))[0]).toMatchObject({ id: productId, available: true, offered: true });
    expect((await prices(kuwait(1, '12:00')))[0]).toMatchObject({ id: productId, available: false, offered: false });
  });

  it('reads `at` from now to 7 days ahead; anything else is a 400', async () => {
    for (const at of [new Date(Date.now() - 3_600_000).toISOString(), new Date(Date.now() + 8 * 24 * 3_600_000).toISOString(), 'tomorrow', '2026-13-45T07:00:00Z']) {
      for (const url of [MENU, DETAIL, PRICES]) {
        const res = await server.api.get(url, { query: { brandId: 7, branchId: 1, productid: productId, productIds: [productId], at } });
        expect(res.status, `${url} at=${at}`).toBe(400);
        expect(res.body.error?.message).toMatch(/`at` must be a time/);
      }
    }
    expect((await server.api.get(MENU, { query: { brandId: 7, branchId: 1, at: new Date(Date.now() + 6 * 24 * 3_600_000).toISOString() } })).status).toBe(200);
    // As far as an order may be for (domain/orderTime.ts ORDER_AHEAD_DAYS): the whole of the 7th day on Kuwait's calendar.
    const lastEvening = fromZoneInput(`${addDays(dayKey(new Date()), ORDER_AHEAD_DAYS)}T23:30`)!;
    expect((await server.api.get(MENU, { query: { brandId: 7, branchId: 1, at: lastEvening } })).status).toBe(200);
  });
});

describe('placement checks the lines at the order time', () => {
  it('refuses a line outside its windows, naming the product (English and Arabic), and writes nothing', async () => {
    const before = { orders: await countRows(server, 'orders'), lines: await countRows(server, 'order_items') };
    const refused = await order();
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(ORDER_TEXT.notOfferedAt('Shakshuka'));
    // The line is named, so the shop marks it in the cart as it marks a sold-out line.
    expect(refused.body.error?.validationErrors?.[0].members).toEqual(['products[0]']);
    const arabic = await order('ar');
    expect(arabic.status).toBe(400);
    expect(arabic.body.error?.message).toBe('Shakshuka غير متوفر في قائمة الطعام في وقت هذا الطلب.');
    expect({ orders: await countRows(server, 'orders'), lines: await countRows(server, 'order_items') }).toEqual(before);
  });

  it('takes the order once the type is served today; the sub-type and the product narrow it further', async () => {
    await ok(server.api.put(`${PTS}/UpdateProductType`, { ...admin(), body: { id: typeId, availabilityWindows: [breakfastIn(1), wholeDayIn(0)] } }));
    expect((await order()).status).toBe(200);
    // A sub-type served only tomorrow: the product is not offered now, though its type is.
    await ok(server.api.put(`${PTS}/UpdateProductSubType`, { ...admin(), body: { id: subtypeId, availabilityWindows: [wholeDayIn(1)] } }));
    expect((await order()).body.error?.message).toBe(ORDER_TEXT.notOfferedAt('Shakshuka'));
    await ok(server.api.put(`${PTS}/UpdateProductSubType`, { ...admin(), body: { id: subtypeId, availabilityWindows: [] } }));
    // The product's own windows: tomorrow only.
    const updated = await ok(server.api.put(`${PRODUCTS}/UpdateProduct`, { ...admin(), body: { id: productId, availabilityWindows: [wholeDayIn(1)] } }));
    expect(updated.availabilityWindows).toEqual([wholeDayIn(1)]);
    expect((await order()).body.error?.message).toBe(ORDER_TEXT.notOfferedAt('Shakshuka'));
    await ok(server.api.put(`${PRODUCTS}/UpdateProduct`, { ...admin(), body: { id: productId, availabilityWindows: [] } }));
    expect((await order()).status).toBe(200);
    // Back to breakfast tomorrow only, for the tests after this one.
    await ok(server.api.put(`${PTS}/UpdateProductType`, { ...admin(), body: { id: typeId, availabilityWindows: [breakfastIn(1)] } }));
  });
});

describe('editing windows', () => {
  const calls = () => [
    { what: 'type', call: (body: object, tok?: string) => server.api.put(`${PTS}/UpdateProductType`, { token: tok, body: { id: typeId, ...body } }) },
    { what: 'sub-type', call: (body: object, tok?: string) => server.api.put(`${PTS}/UpdateProductSubType`, { token: tok, body: { id: subtypeId, ...body } }) },
    { what: 'product', call: (body: object, tok?: string) => server.api.put(`${PRODUCTS}/UpdateProduct`, { token: tok, body: { id: productId, ...body } }) },
  ];

  it('refuses bad windows with a 400 that says what is wrong, writing nothing', async () => {
    const bad: [MenuWindow, RegExp][] = [
      [{ weekday: 7, fromMinute: 360, toMinute: 660 }, /weekday must be 0 \(Sunday\) to 6/],
      [{ weekday: -1, fromMinute: 360, toMinute: 660 }, /weekday must be 0/],
      [{ weekday: 1, fromMinute: -5, toMinute: 660 }, /start must be a time of day/],
      [{ weekday: 1, fromMinute: 360, toMinute: 1441 }, /end must be a time of day/],
      [{ weekday: 1, fromMinute: 360, toMinute: 360 }, /the same time/],
      [{ weekday: 1, fromMinute: 1440, toMinute: 60 }, /before 24:00/],
    ];
    for (const { what, call } of calls()) {
      for (const [window, message] of bad) {
        const res = await expectCall(server, TABLES, `${what} ${JSON.stringify(window)}`, 400, () => call({ name: 'Renamed', availabilityWindows: [breakfastIn(1), window] }, token.admin));
        expect(res.body.error?.message).toMatch(/^Availability window 2: /);
        expect(res.body.error?.message).toMatch(message);
      }
      await expectCall(server, TABLES, `${what}: not integers`, 400, () => call({ availabilityWindows: [{ weekday: 'monday', fromMinute: 360, toMinute: 660 }] }, token.admin));
    }
    // Creating is held to the same rules.
    await expectCall(server, TABLES, 'new type', 400, () => server.api.post(`${PTS}/CreateProductType`, { ...admin(), body: { brandId: 7, name: 'Late', availabilityWindows: [{ weekday: 5, fromMinute: 60, toMinute: 60 }] } }));
  });

  it('answers 401 and 403 before any complaint about the body', async () => {
    const body = { availabilityWindows: [{ weekday: 9, fromMinute: 5000, toMinute: 5000 }] };
    for (const { what, call } of calls()) {
      await expectCall(server, TABLES, `${what} anonymous`, 401, () => call(body));
      await expectCall(server, TABLES, `${what} customer`, 403, () => call(body, token.customer));
      await expectCall(server, TABLES, `${what} branch user`, 403, () => call(body, token.branchuser));
    }
  });

  it('keeps windows that cross midnight, and answers them where staff read the menu', async () => {
    const late = { weekday: weekdayIn(1), fromMinute: 22 * 60, toMinute: 2 * 60 };
    const saved = await ok(server.api.put(`${PTS}/UpdateProductType`, { ...admin(), body: { id: typeId, availabilityWindows: [breakfastIn(1), late] } }));
    expect(saved.availabilityWindows).toEqual([breakfastIn(1), late]);
    const types = await ok(server.api.get(`${PTS}/GetProductTypeWithSubtypesDictionary`, { ...admin(), query: { brandId: 7 } }));
    expect(types.find((ty: any) => ty.id === typeId).availabilityWindows).toEqual([breakfastIn(1), late]);
    // Tomorrow 01:00 falls in the window that started the day before (today) only if today had one: it has not.
    expect(await onMenu(kuwait(2, '01:00'))).toMatchObject({ available: true });
    expect(await onMenu(kuwait(1, '01:00'))).toMatchObject({ available: false });
    expect(await onMenu(kuwait(1, '23:30'))).toMatchObject({ available: true });
  });
});

describe('an order for later (issue 25, domain/orderTime.ts)', () => {
  it("takes tomorrow's 07:00 breakfast today: the lines are checked at the time the order is for, not at placement", async () => {
    const placed = await server.api.post(SAVE, {
      token: customer, headers: { 'idempotency-key': `menu-windows-${++keys}` },
      body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId, quantity: 1 }], scheduledFor: kuwait(1, '07:00') },
    });
    expect(placed.status, JSON.stringify(placed.body.error)).toBe(200);
    // The same order for tomorrow's 12:00 is outside breakfast.
    const lunch = await server.api.post(SAVE, {
      token: customer, headers: { 'idempotency-key': `menu-windows-${++keys}` },
      body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId, quantity: 1 }], scheduledFor: kuwait(1, '12:00') },
    });
    expect(lunch.body.error?.message).toBe(ORDER_TEXT.notOfferedAt('Shakshuka'));
  });
});
