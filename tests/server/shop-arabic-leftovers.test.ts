import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * Issue 12, the Arabic shop's leftovers (helper F, fourth session): a branch's address and delivery
 * text in Arabic (seeded, set in the console, shown to a request in Arabic), the Arabic names of
 * option groups and additions edited in the console, and the SMS a customer receives in the
 * language they asked in.
 */
const APP = '/api/services/app';
const AR = { 'accept-language': 'ar-KW,ar;q=0.9' };
const sent: { phone: string; text: string }[] = [];

let admin: string;
let brandManager: string;
const server = useServer({ sms: { embeddedOutbox: true, async send(phone, text) { sent.push({ phone, text }); } } });
beforeAll(async () => {
  [admin, brandManager] = await Promise.all([server.api.login('admin'), server.api.login('brandmanager')]);
});

const ok = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
/** A 400 naming `member`, with nothing written. */
async function refused(res: Promise<{ status: number; body: any }>, member: string, tables: string[]) {
  const before = await Promise.all(tables.map((tb) => countRows(server, tb)));
  const snapshot = await server.database.db.select().from(t.branches).orderBy(t.branches.id);
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(JSON.stringify(r.body.error)).toContain(member);
  expect(await Promise.all(tables.map((tb) => countRows(server, tb)))).toEqual(before);
  expect(await server.database.db.select().from(t.branches).orderBy(t.branches.id)).toEqual(snapshot);
}

describe("a branch's address and delivery text in Arabic", () => {
  it('the shop calls answer the seeded Arabic address, delivery text and name in Arabic, the English ones otherwise', async () => {
    const brands = await ok(server.api.get(`${APP}/Brand/GetBrandsForMangoCustomer`, { headers: AR }));
    const salmiya = brands.find((b: any) => b.id === 7).branches.find((b: any) => b.id === 1);
    expect(salmiya).toMatchObject({ name: 'السالمية', branchAddress: 'شارع سالم المبارك، قطعة 10، السالمية', deliveryText: 'التوصيل خلال 30–45 دقيقة' });
    const list = await ok(server.api.get(`${APP}/Branch/GetBranchesForCustomer`, { query: { brandId: 8 }, headers: AR }));
    expect(list.map((b: any) => b.branchAddress)).toEqual(['شارع فهد السالم، القبلة، مدينة الكويت', 'قطعة 1أ، الجابرية']);
    // The branch details page's call: it answered the English name and address to an Arabic request.
    expect(await ok(server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 1 }, headers: AR })))
      .toMatchObject({ name: 'السالمية', branchAddress: 'شارع سالم المبارك، قطعة 10، السالمية', deliveryText: 'التوصيل خلال 30–45 دقيقة' });
    expect(await ok(server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 1 } })))
      .toMatchObject({ name: 'Salmiya', branchAddress: 'Salem Al Mubarak St, Block 10, Salmiya', deliveryText: 'Delivery in 30–45 minutes' });
    // A product's delivery text on its page, the same way.
    const detail = (headers?: Record<string, string>) => ok(server.api.get(`${APP}/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: 1, branchId: 1 }, headers }));
    expect((await detail(AR)).productDeliveryText).toBe('جاهز خلال 10 دقائق تقريبًا');
    expect((await detail()).productDeliveryText).toBe('Ready in about 10 minutes');
  });

  it('the console sets and clears them; English typed into an Arabic field is a 400 naming it, a customer gets 403 first', async () => {
    const updated = await ok(server.api.put(`${APP}/Branch/Update`, {
      token: admin, body: { id: 3, nameAr: 'فرع الجابرية', branchAddressAr: 'شارع 5، قطعة 1أ، الجابرية', deliveryTextAr: 'التوصيل خلال ساعة' },
    }));
    expect(updated).toMatchObject({ name: 'Jabriya', nameAr: 'فرع الجابرية', branchAddress: 'Block 1A, Jabriya', branchAddressAr: 'شارع 5، قطعة 1أ، الجابرية', deliveryTextAr: 'التوصيل خلال ساعة' });
    expect(await ok(server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 3 }, headers: AR })))
      .toMatchObject({ name: 'فرع الجابرية', branchAddress: 'شارع 5، قطعة 1أ، الجابرية', deliveryText: 'التوصيل خلال ساعة' });
    const listed = await ok(server.api.get(`${APP}/Branch/GetBranchesForCurrentUser`, { token: admin, query: { id: 3 } }));
    expect(listed.data[0]).toMatchObject({ branchAddressAr: 'شارع 5، قطعة 1أ، الجابرية', deliveryTextAr: 'التوصيل خلال ساعة' });

    await refused(server.api.put(`${APP}/Branch/Update`, { token: admin, body: { id: 3, branchAddressAr: 'Block 1A, Jabriya' } }), 'branchAddressAr', ['branches', 'audit_log']);
    await refused(server.api.put(`${APP}/Branch/Update`, { token: admin, body: { id: 3, deliveryTextAr: 'ب'.repeat(301) } }), 'deliveryTextAr', ['branches', 'audit_log']);
    const customer = await server.api.login('customer');
    const denied = await server.api.put(`${APP}/Branch/Update`, { token: customer, body: { id: 3, branchAddressAr: 'Block 1A' } });
    expect(denied.status).toBe(403);

    // Empty clears it: the Arabic shop shows the English address again.
    await ok(server.api.put(`${APP}/Branch/Update`, { token: admin, body: { id: 3, branchAddressAr: '', deliveryTextAr: '' } }));
    expect(await ok(server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 3 }, headers: AR })))
      .toMatchObject({ branchAddress: 'Block 1A, Jabriya', deliveryText: 'Delivery in 35 minutes' });
  });
});

describe('Arabic names of option groups and additions from the console', () => {
  const detail = async (productId: number, headers?: Record<string, string>) =>
    ok(server.api.get(`${APP}/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: productId, branchId: 1 }, headers }));

  it("an addition group and its additions reach the Arabic shop by their Arabic names; the dialog's whole-group save changes and clears them", async () => {
    const [{ cappuccino, typeId }] = await server.database.db.select({ cappuccino: t.products, typeId: t.productSubtypes.typeId }).from(t.products)
      .innerJoin(t.productSubtypes, eq(t.productSubtypes.id, t.products.subtypeId)).where(eq(t.products.name, 'Cappuccino'));
    const group = await ok(server.api.post(`${APP}/ProductAddition/CreateNewProductAdditionsGroup`, {
      token: brandManager,
      body: { productTypeId: typeId, name: 'Toppings', nameAr: 'الإضافات العلوية', allowMultiple: true, additions: [{ name: 'Cinnamon', nameAr: 'قرفة', price: 0.1 }, { name: 'Cocoa', price: 0.1 }] },
    }));
    expect(group).toMatchObject({ name: 'Toppings', nameAr: 'الإضافات العلوية' });
    expect(group.subItems.map((s: any) => [s.name, s.nameAr])).toEqual([['Cinnamon', 'قرفة'], ['Cocoa', null]]);
    await ok(server.api.post(`${APP}/ProductAddition/CreateProductAdditionsGroup`, { token: brandManager, body: { productId: cappuccino.id, additionGroupId: group.id } }));

    const ar = await detail(cappuccino.id, AR);
    const toppings = ar.optionGroups.find((g: any) => g.id === group.id);
    expect(toppings.name).toBe('الإضافات العلوية');
    expect(toppings.subItem.map((s: any) => s.name)).toEqual(['قرفة', 'Cocoa']);
    expect((await detail(cappuccino.id)).optionGroups.find((g: any) => g.id === group.id).name).toBe('Toppings');

    // The dialog saves the group as a whole: the Arabic names change with it, and empty clears one.
    const [cinnamon, cocoa] = group.subItems;
    const saved = await ok(server.api.put(`${APP}/ProductAddition/UpdateProductAdditionsGroup`, {
      token: brandManager,
      body: { id: group.id, nameAr: '', additions: [{ id: cinnamon.id, name: 'Cinnamon', nameAr: '', price: 0.1 }, { id: cocoa.id, name: 'Cocoa', nameAr: 'كاكاو', price: 0.1 }] },
    }));
    expect([saved.nameAr, ...saved.subItems.map((s: any) => s.nameAr)]).toEqual([null, null, 'كاكاو']);
    const after = (await detail(cappuccino.id, AR)).optionGroups.find((g: any) => g.id === group.id);
    expect([after.name, ...after.subItem.map((s: any) => s.name)]).toEqual(['Toppings', 'Cinnamon', 'كاكاو']);

    // One addition on its own.
    const one = await ok(server.api.put(`${APP}/ProductAddition/UpdateProductAddition`, { token: brandManager, body: { id: cinnamon.id, nameAr: 'قرفة مطحونة' } }));
    expect(one).toMatchObject({ name: 'Cinnamon', nameAr: 'قرفة مطحونة' });

    // English in the Arabic field: 400 naming it, nothing written.
    const tables = ['option_groups', 'option_items', 'audit_log'];
    const beforeRows = await server.database.db.select().from(t.optionItems).orderBy(t.optionItems.id);
    await refused(server.api.put(`${APP}/ProductAddition/UpdateProductAdditionsGroup`, {
      token: brandManager, body: { id: group.id, additions: [{ id: cinnamon.id, name: 'Cinnamon', nameAr: 'Cinnamon', price: 0.1 }] },
    }), 'nameAr', tables);
    await refused(server.api.post(`${APP}/ProductAddition/CreateNewProductAdditionsGroup`, {
      token: brandManager, body: { productTypeId: typeId, name: 'Syrups', nameAr: 'Syrups', additions: [{ name: 'Vanilla', price: 0.2 }] },
    }), 'nameAr', tables);
    expect(await server.database.db.select().from(t.optionItems).orderBy(t.optionItems.id)).toEqual(beforeRows);
    const customer = await server.api.login('customer');
    expect((await server.api.put(`${APP}/ProductAddition/UpdateProductAddition`, { token: customer, body: { id: cinnamon.id, nameAr: 'x' } })).status).toBe(403);
  });
});

describe('the SMS a customer receives, in their language', () => {
  it('the registration and password reset codes are written in the language the shop asked in', async () => {
    const phone = '+96551234567';
    await ok(server.api.post(`${APP}/Customer/RegistrateNewUnregisteredUser`, { body: { phoneNumber: phone }, headers: AR }));
    const [code] = (await server.database.db.select().from(t.smsOutbox).where(eq(t.smsOutbox.phoneNumber, phone)));
    expect(sent.at(-1)).toEqual({ phone, text: `رمز التحقق لتسجيل حسابك هو ${code.code}` });

    const other = '+96551234568';
    await ok(server.api.post(`${APP}/Customer/RegistrateNewUnregisteredUser`, { body: { phoneNumber: other } }));
    const [english] = (await server.database.db.select().from(t.smsOutbox).where(eq(t.smsOutbox.phoneNumber, other)));
    expect(sent.at(-1)).toEqual({ phone: other, text: `Your verification code is ${english.code}` });

    const customerPhone = '+96550000001';
    expect(await ok(server.api.get('/api/TokenAuth/SendPasswordResetCodeBySms', { query: { phoneNumber: customerPhone }, headers: AR }))).toBe(true);
    const resets = await server.database.db.select().from(t.smsOutbox).where(eq(t.smsOutbox.phoneNumber, customerPhone));
    expect(sent.at(-1)).toEqual({ phone: customerPhone, text: `رمز التحقق لإعادة تعيين كلمة المرور هو ${resets.at(-1)!.code}` });
  });

  it('a wrong password on the Arabic sign-in page is refused in Arabic, in English otherwise', async () => {
    const body = { userNameOrEmailAddress: 'customer', password: 'not-the-password' };
    const ar = await server.api.post('/api/TokenAuth/Authenticate', { body, headers: AR });
    expect(ar.status).toBe(400);
    expect(ar.body.error?.message).toBe('اسم المستخدم أو كلمة المرور غير صحيحة');
    expect((await server.api.post('/api/TokenAuth/Authenticate', { body })).body.error?.message).toBe('Invalid user name or password');
  });
});
