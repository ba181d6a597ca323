import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import * as t from '../../server/db/schema';
import { requestLanguage } from '../../server/http/language';

/** The shop's calls answer names and refusals in the language the request asks for (Accept-Language). */
const APP = '/api/services/app';
const AR = { 'accept-language': 'ar-KW,ar;q=0.9,en;q=0.8' };
let server: TestServer;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let customer: string;

beforeAll(async () => {
  server = await startTestServer();
  menu = await seededMenu(server);
  customer = await server.api.guestToken();
});
afterAll(async () => { await server?.close(); });

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

  it('a message with a name in it keeps the name', async () => {
    const body = {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Sara', guestPhoneNumber: '+96550000009',
      products: [{ productId: menu.product('Flat White'), quantity: 1, additions: [] }],
    };
    const en = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body });
    const ar = await server.api.post(`${APP}/Store/QuoteOrder`, { token: customer, body, headers: AR });
    expect(en.status).toBe(400);
    expect(en.body.error?.message).toBe('Please choose Size for Flat White.');
    expect(ar.status).toBe(400);
    expect(ar.body.error?.message).toBe('يرجى اختيار Size لـ Flat White.');
  });

  it('a refusal before the body is read (401) is in Arabic too; an untranslated message stays English', async () => {
    const res = await server.api.post(`${APP}/Store/QuoteOrder`, { body: {}, headers: AR });
    expect(res.status).toBe(401);
    expect(res.body.error?.message).toBe('لم يسجّل المستخدم الحالي الدخول إلى التطبيق!');
    const missing = await server.api.get(`${APP}/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: 999999 }, headers: AR });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.message).toBe('There is no such an entity. Product');
  });
});
