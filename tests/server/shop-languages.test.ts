import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { requestLanguage } from '../../server/http/language';

/** The shop's calls answer names and refusals in the language the request asks for (Accept-Language). */
const APP = '/api/services/app';
const AR = { 'accept-language': 'ar-KW,ar;q=0.9,en;q=0.8' };
let menu: Awaited<ReturnType<typeof seededMenu>>;
let customer: string;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  customer = await server.api.guestToken();
});

describe('Accept-Language', () => {
  it('picks the best language the product speaks, English otherwise', () => {
    expect(requestLanguage({})).toBe('en');
    expect(requestLanguage({ 'accept-language': 'ar' })).toBe('ar');
    expect(requestLanguage({ 'accept-language': 'ar-KW' })).toBe('ar');
    expect(requestLanguage({ 'accept-language': 'fr-FR, en;q=0.5, ar;q=0.4' })).toBe('en');
    expect(requestLanguage({ 'accept-language': 'en;q=0.3, ar;q=0.9' })).toBe('ar');
    expect(requestLanguage({ 'accept-language': 'ar;q=0, de' })).toBe('en');
    expect(requestLanguage({ 'accept-language': ';;;,q=,ar;q=abc' })).toBe('en');
  });
});

describe('names in Arabic', () => {
  it('brands and branches for the picker', async () => {
    const en = await server.api.get(`${APP}/Brand/GetBrandsForMangoCustomer`);
    const ar = await server.api.get(`${APP}/Brand/GetBrandsForMangoCustomer`, { headers: AR });
    expect(ar.status).toBe(200);
    const mango = (res: typeof en) => res.body.result.find((b: { id: number }) => b.id === 7);
    expect(mango(en)).toMatchObject({ name: 'Mango Coffee', branches: [expect.objectContaining({ name: 'Salmiya' })] });
    expect(mango(ar)).toMatchObject({ name: 'مانجو كوفي', branches: [expect.objectContaining({ name: 'السالمية' })] });
    // Everything else is the same answer.
    expect(mango(ar).branches[0].openTime).toBe(mango(en).branches[0].openTime);
  });

  it('the menu: types, subtypes, products and descriptions; a missing Arabic name falls back to English', async () => {
    const get = (headers?: Record<string, string>) =>
      server.api.get(`${APP}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, { query: { brandId: 7, branchId: 1 }, headers });
    const en = (await get()).body.result;
    const ar = (await get(AR)).body.result;
    expect(en[0].name).toBe('Coffee');
    expect(ar[0].name).toBe('القهوة');
    expect(ar[0].subtypes[0].name).toBe('قهوة ساخنة');
    const cappuccino = ar[0].subtypes[0].products.find((p: { id: number }) => p.id === menu.product('Cappuccino'));
    expect(cappuccino).toMatchObject({ name: 'كابتشينو', description: 'إسبريسو مع حليب مبخّر وطبقة كثيفة من الرغوة.', price: 1.25 });

    const espresso = menu.product('Espresso');
    await server.database.db.update(t.products).set({ nameAr: null }).where(eq(t.products.id, espresso));
    try {
      const again = (await get(AR)).body.result[0].subtypes[0].products.find((p: { id: number }) => p.id === espresso);
      expect(again.name).toBe('Espresso');
      expect(again.description).toBe('جرعة مزدوجة من خلطتنا الخاصة، غنية وكثيفة.');
    } finally {
      await server.database.db.update(t.products).set({ nameAr: 'إسبريسو' }).where(eq(t.products.id, espresso));
    }
  });

  it("a product's page: its option groups and options", async () => {
    const get = (headers?: Record<string, string>) =>
      server.api.get(`${APP}/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: menu.product('Cappuccino'), branchId: 1 }, headers });
    const ar = (await get(AR)).body.result;
    expect(ar.name).toBe('كابتشينو');
    const size = ar.optionGroups.find((g: { id: number }) => g.id === menu.group('Cappuccino', 'Size'));
    expect(size.name).toBe('الحجم');
    expect(size.subItem.map((o: { name: string }) => o.name)).toEqual(['صغير', 'وسط', 'كبير']);
    expect((await get()).body.result.optionGroups[0].name).toBe('Size');
  });
});

describe('payment methods, delivery areas, addresses and orders in Arabic', () => {
  it('the payment methods of the checkout', async () => {
    const get = (headers?: Record<string, string>) => server.api.get(`${APP}/Store/GetStorePaymentSystemTypesForTopUpV2ForMangoes`, { query: { brandId: 7 }, headers });
    const names = (res: Awaited<ReturnType<typeof get>>) => res.body.result.map((m: { paymentSystemId: number; name: string }) => [m.paymentSystemId, m.name]);
    expect(names(await get())).toEqual([[1, 'KNET'], [2, 'Cash at branch'], [3, 'VISA/MASTER']]);
    // The card keeps SPEC.md's label; the shop translates it where it shows it.
    expect(names(await get(AR))).toEqual([[1, 'كي نت'], [2, 'الدفع نقدًا في الفرع'], [3, 'VISA/MASTER']]);
  });

  it('regions and areas of the location picker, and the saved address', async () => {
    const tree = async (headers?: Record<string, string>) =>
      (await server.api.get(`${APP}/Country/GetDeliveryAreasTreeByBrandIdForShop`, { query: { brandId: 7 }, headers })).body.result;
    const [en, ar] = [await tree(), await tree(AR)];
    const hawalli = (regions: { id: number; name: string; children: { id: number; name: string }[] }[]) => regions.find((r) => r.id === en.find((x: { name: string }) => x.name === 'Hawalli').id)!;
    expect(hawalli(ar).name).toBe('حولي');
    const salmiya = hawalli(en).children.find((c) => c.name === 'Salmiya')!;
    expect(hawalli(ar).children.find((c) => c.id === salmiya.id)!.name).toBe('السالمية');
    // The order of areas and their fees are the same answer.
    expect(hawalli(ar).children.map((c) => c.id).sort()).toEqual(hawalli(en).children.map((c) => c.id).sort());

    const token = await server.api.login('customer');
    const [{ id: me }] = await server.database.db.select({ id: t.users.id }).from(t.users).where(eq(t.users.userName, 'customer'));
    const added = await server.api.post(`${APP}/CustomerDeliveryAddress/AddCustomerDeliveryAddress`, {
      token, headers: AR,
      body: { userId: me, regionId: hawalli(en).id, areaId: salmiya.id, block: '10', street: 'Salem Al Mubarak', house_no: '5' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.result).toMatchObject({ region: 'حولي', area: 'السالمية' });
    const list = async (headers?: Record<string, string>) =>
      (await server.api.get(`${APP}/CustomerDeliveryAddress/GetCustomerDeliveryAddressListByUserId`, { token, query: { userId: me }, headers })).body.result
        .find((a: { id: number }) => a.id === added.body.result.id);
    expect(await list()).toMatchObject({ region: 'Hawalli', area: 'Salmiya' });
    expect(await list(AR)).toMatchObject({ region: 'حولي', area: 'السالمية' });
  });

  it("the car dictionaries and the customer's cars", async () => {
    const token = await server.api.login('customer');
    const colors = (await server.api.get(`${APP}/Cars/GetCarColors`, { headers: AR })).body.result;
    expect(colors[0]).toEqual({ id: expect.any(Number), name: 'أبيض' });
    expect((await server.api.get(`${APP}/Cars/GetCarColors`)).body.result[0].name).toBe('White');
    const types = (await server.api.get(`${APP}/Cars/GetCarTypes`, { headers: AR })).body.result;
    const brands = (await server.api.get(`${APP}/Cars/GetCarBrands`, { headers: AR })).body.result;
    const added = await server.api.post(`${APP}/Cars/AddCustomerCar`, {
      token, headers: AR, query: { carBrandId: brands[0].id, carTypeId: types[0].id, carColorId: colors[0].id, plateNumber: '12345' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.result).toMatchObject({ carBrandName: 'تويوتا', carTypeName: 'سيدان', carColorName: 'أبيض', plateNumber: '12345' });
    const mine = (await server.api.get(`${APP}/Cars/GetCustomerCars`, { token })).body.result.find((c: { id: number }) => c.id === added.body.result.id);
    expect(mine).toMatchObject({ carBrandName: 'Toyota', carTypeName: 'Sedan', carColorName: 'White' });
  });

  it("an order's branch and payment method on /track-order and in the history", async () => {
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Sara', guestPhoneNumber: '+96550000019',
      products: [{ productId: menu.product('Espresso'), quantity: 1, additions: [] }],
    };
    const placed = await server.api.post(`${APP}/Store/SaveNewOrderVS1`, { token: customer, body });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, ohash } = placed.body.result;
    const detail = async (headers?: Record<string, string>) =>
      (await server.api.get(`${APP}/Store/GetOrderDetail`, { token: customer, query: { orderId, ohash }, headers })).body.result;
    expect(await detail()).toMatchObject({ branchName: 'Salmiya', paymentSystemName: 'Cash at branch' });
    const ar = await detail(AR);
    expect(ar).toMatchObject({ branchName: 'السالمية', paymentSystemName: 'الدفع نقدًا في الفرع' });
    // The customer reads the lines' Arabic names; the order keeps the English ones the branch's staff read.
    expect(ar.items[0].name).toBe('إسبريسو');
    expect((await detail()).items[0].name).toBe('Espresso');
    const [line] = await server.database.db.select().from(t.orderItems).where(eq(t.orderItems.orderId, orderId));
    expect(line.name).toBe('Espresso');
  });
});

describe('refusals in Arabic', () => {
  it("the shop's refusals read in Arabic when asked, and exactly as before in English", async () => {
    const wrongBranch = { query: { brandId: 7, branchId: 2 } };
    const en = await server.api.get(`${APP}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, wrongBranch);
    const ar = await server.api.get(`${APP}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, { ...wrongBranch, headers: AR });
    expect(en.status).toBe(400);
    expect(en.body.error?.message).toBe('This branch does not belong to the brand.');
    expect(ar.status).toBe(400);
    expect(ar.body.error?.message).toBe('هذا الفرع لا يتبع هذه العلامة التجارية.');
  });

  it("SPEC.md's verbatim messages keep their English and have their Arabic, validation errors included", async () => {
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Sara',
      products: [{ productId: menu.product('Espresso'), quantity: 1, additions: [] }],
    };
    const en = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body });
    const ar = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body, headers: AR });
    expect(en.status).toBe(400);
    expect(en.body.error?.validationErrors?.map((v) => v.message)).toContain('Please Enter Phone Number');
    expect(ar.status).toBe(400);
    expect(ar.body.error?.validationErrors?.map((v) => v.message)).toContain('يرجى إدخال رقم الهاتف');
    expect(ar.body.error?.validationErrors?.map((v) => v.members)).toEqual(en.body.error?.validationErrors?.map((v) => v.members));
  });

  it('a message with a name in it carries the name in the asked language', async () => {
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Sara', guestPhoneNumber: '+96550000009',
      products: [{ productId: menu.product('Flat White'), quantity: 1, additions: [] }],
    };
    const en = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body });
    const ar = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body, headers: AR });
    expect(en.status).toBe(400);
    expect(en.body.error?.message).toBe('Please choose Size for Flat White.');
    expect(ar.status).toBe(400);
    expect(ar.body.error?.message).toBe('يرجى اختيار الحجم لـ فلات وايت.');
  });

  it('a sold-out or unavailable product is refused with its name in the asked language; a name without Arabic stays English', async () => {
    const flatWhite = menu.product('Flat White');
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Sara', guestPhoneNumber: '+96550000009',
      products: [{ productId: flatWhite, quantity: 1, additions: [{ additionId: menu.option('Flat White', 'Size', 'Small') }] }],
    };
    const quote = (headers?: Record<string, string>) => server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body, headers });
    const until = new Date(Date.now() + 3 * 3600_000);
    await server.database.db.insert(t.branchHiddenProducts).values({ branchId: 1, productId: flatWhite, unavailableUntil: until });
    try {
      const en = await quote();
      const ar = await quote(AR);
      expect(en.status).toBe(400);
      expect(en.body.error?.message).toMatch(/^Flat White is sold out at this branch until .+\.$/);
      expect(ar.status).toBe(400);
      expect(ar.body.error?.message).toMatch(/^نفدت كمية فلات وايت في هذا الفرع حتى .+\.$/);
      expect(ar.body.error?.message).not.toContain('Flat White');

      await server.database.db.update(t.branchHiddenProducts).set({ unavailableUntil: null }).where(eq(t.branchHiddenProducts.productId, flatWhite));
      expect((await quote(AR)).body.error?.message).toBe('فلات وايت غير متوفر في هذا الفرع الآن.');
      expect((await quote()).body.error?.message).toBe('Flat White is not available at this branch right now.');

      await server.database.db.update(t.products).set({ nameAr: null }).where(eq(t.products.id, flatWhite));
      expect((await quote(AR)).body.error?.message).toBe('Flat White غير متوفر في هذا الفرع الآن.');
    } finally {
      await server.database.db.update(t.products).set({ nameAr: 'فلات وايت' }).where(eq(t.products.id, flatWhite));
      await server.database.db.delete(t.branchHiddenProducts).where(eq(t.branchHiddenProducts.productId, flatWhite));
    }
  });

  it('a refusal before the body is read (401) is in Arabic too; an untranslated message stays English', async () => {
    const res = await server.api.post(`${APP}/Store/QuoteOrder`, { body: {}, headers: AR });
    expect(res.status).toBe(401);
    expect(res.body.error?.message).toBe('لم يسجّل المستخدم الحالي الدخول إلى التطبيق!');
    const missing = await server.api.get(`${APP}/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: 999999 }, headers: AR });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.message).toBe('Product not found.');
  });
});
