import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * Issue 12: the console edits the Arabic names (name_ar) of products, product types, sub-types and
 * brands, validated; what it sets is what the shop shows a request in Arabic, and clearing it
 * shows the English name again.
 */
const APP = '/api/services/app';
const PT = `${APP}/ProductTypesAndSubtypes`;
const P = `${APP}/Products`;
const SHOP_LIST = `${P}/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`;
const SHOP_DETAIL = `${PT}/GetProductItemWithSubItemDictionarywithProduct`;
const BRANDS = `${APP}/Brand/GetBrandsForMangoCustomer`;
const AR = { 'accept-language': 'ar' };

let menu: Awaited<ReturnType<typeof seededMenu>>;
let admin: string;
let brandManager: string;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  admin = await server.api.login('admin');
  brandManager = await server.api.login('brandmanager');
});

const ok = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const WRITTEN = ['product_types', 'product_subtypes', 'products', 'brands', 'audit_log'];
/** A 400 naming nameAr (or descriptionAr), with nothing written anywhere. */
async function refused(res: Promise<{ status: number; body: any }>, member = 'nameAr') {
  const before = await Promise.all(WRITTEN.map((tb) => countRows(server, tb)));
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(JSON.stringify(r.body.error)).toContain(member);
  expect(await Promise.all(WRITTEN.map((tb) => countRows(server, tb)))).toEqual(before);
}
const shopMenu = async (headers?: Record<string, string>) =>
  (await ok(server.api.get(SHOP_LIST, { query: { brandId: 7, branchId: 1 }, headers }))) as { id: number; name: string; subtypes: { id: number; name: string; products: { id: number; name: string; description: string }[] }[] }[];

describe('Arabic names from the console', () => {
  it('a product type, a sub-type and a product created with Arabic names: the Arabic shop shows them, the English shop its own', async () => {
    const type = await ok(server.api.post(`${PT}/CreateProductType`, { token: brandManager, body: { brandId: 7, name: 'Juices', nameAr: 'العصائر' } }));
    expect(type).toMatchObject({ name: 'Juices', nameAr: 'العصائر' });
    const sub = await ok(server.api.post(`${PT}/CreateProductSubType`, { token: brandManager, body: { typeId: type.id, name: 'Fresh', nameAr: 'طازجة' } }));
    expect(sub.nameAr).toBe('طازجة');
    const product = await ok(server.api.post(`${P}/CreateProducts`, {
      token: brandManager,
      body: { subtypeId: sub.id, name: 'Orange Juice', nameAr: 'عصير برتقال', description: 'Squeezed to order.', descriptionAr: 'يُعصر عند الطلب.', price: 1.5 },
    }));
    expect(product).toMatchObject({ name: 'Orange Juice', nameAr: 'عصير برتقال', descriptionAr: 'يُعصر عند الطلب.' });

    const ar = (await shopMenu(AR)).find((x) => x.id === type.id)!;
    expect(ar.name).toBe('العصائر');
    expect(ar.subtypes[0].name).toBe('طازجة');
    expect(ar.subtypes[0].products[0]).toMatchObject({ name: 'عصير برتقال', description: 'يُعصر عند الطلب.' });
    const en = (await shopMenu()).find((x) => x.id === type.id)!;
    expect([en.name, en.subtypes[0].name, en.subtypes[0].products[0].name]).toEqual(['Juices', 'Fresh', 'Orange Juice']);
    expect((await ok(server.api.get(SHOP_DETAIL, { query: { productid: product.id, branchId: 1 }, headers: AR }))).name).toBe('عصير برتقال');

    // The console's tree and the product form read the Arabic names back.
    const tree = await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { token: brandManager, query: { brandId: 7 } }));
    const inTree = tree.find((x: { id: number }) => x.id === type.id);
    expect(inTree.nameAr).toBe('العصائر');
    expect(inTree.subtypes[0].products[0].nameAr).toBe('عصير برتقال');
  });

  it('renaming in Arabic changes the Arabic shop; clearing it shows the English name again; other fields are left alone', async () => {
    const cappuccino = menu.product('Cappuccino');
    const updated = await ok(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, nameAr: 'كابتشينو إيطالي' } }));
    expect(updated).toMatchObject({ name: 'Cappuccino', nameAr: 'كابتشينو إيطالي' });
    const find = async (headers?: Record<string, string>) => (await shopMenu(headers)).flatMap((x) => x.subtypes.flatMap((s) => s.products)).find((p) => p.id === cappuccino)!;
    expect((await find(AR)).name).toBe('كابتشينو إيطالي');
    await ok(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, nameAr: '  ' } }));
    const [row] = await server.database.db.select().from(t.products).where(eq(t.products.id, cappuccino));
    expect(row.nameAr).toBeNull();
    expect((await find(AR)).name).toBe('Cappuccino');

    const [coffee] = (await shopMenu()).filter((x) => x.name === 'Coffee');
    await ok(server.api.put(`${PT}/UpdateProductType`, { token: brandManager, body: { id: coffee.id, nameAr: 'مشروبات القهوة' } }));
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { token: brandManager, body: { id: coffee.subtypes[0].id, nameAr: 'قهوة حارة' } }));
    const ar = (await shopMenu(AR)).find((x) => x.id === coffee.id)!;
    expect([ar.name, ar.subtypes[0].name]).toEqual(['مشروبات القهوة', 'قهوة حارة']);
    // The English names did not move.
    const en = (await shopMenu()).find((x) => x.id === coffee.id)!;
    expect([en.name, en.subtypes[0].name]).toEqual(['Coffee', coffee.subtypes[0].name]);
  });

  it("a brand's Arabic name from the console is the Arabic shop's brand name", async () => {
    const [before] = await server.database.db.select().from(t.brands).where(eq(t.brands.id, 7));
    expect(before.nameAr).toBe('مانجو كوفي');
    const row = await ok(server.api.put(`${APP}/Brand/UpdateBrand`, { token: admin, body: { id: 7, nameAr: 'مانجو للقهوة' } }));
    expect(row).toMatchObject({ name: 'Mango Coffee', nameAr: 'مانجو للقهوة' });
    const brand = async (headers?: Record<string, string>) => (await ok(server.api.get(BRANDS, { headers }))).find((b: { id: number }) => b.id === 7);
    expect((await brand(AR)).name).toBe('مانجو للقهوة');
    expect((await brand()).name).toBe('Mango Coffee');
    const list = await ok(server.api.get(`${APP}/Brand/GetBrandsForCurrentUserV2`, { token: admin, query: { id: 7, SkipCount: 0, MaxResultCount: 10 } }));
    expect(list.data[0].nameAr).toBe('مانجو للقهوة');
  });

  it('bad Arabic names are 400s naming the field, and nothing is written', async () => {
    const [coffee] = (await shopMenu()).filter((x) => x.name === 'Coffee');
    const cappuccino = menu.product('Cappuccino');
    // English in the Arabic field, too long, not a string.
    await refused(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, nameAr: 'Cappuccino' } }));
    await refused(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, nameAr: 'ق'.repeat(121) } }));
    await refused(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, nameAr: 5 } }));
    await refused(server.api.put(`${P}/UpdateProduct`, { token: brandManager, body: { id: cappuccino, descriptionAr: 'x'.repeat(2001) } }), 'descriptionAr');
    await refused(server.api.post(`${P}/CreateProducts`, { token: brandManager, body: { subtypeId: coffee.subtypes[0].id, name: 'Mocha Two', nameAr: 'Mocha', price: 1 } }));
    await refused(server.api.post(`${PT}/CreateProductType`, { token: brandManager, body: { brandId: 7, name: 'Teas', nameAr: 'Teas' } }));
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { token: brandManager, body: { id: coffee.subtypes[0].id, nameAr: 'Hot' } }));
    await refused(server.api.put(`${APP}/Brand/UpdateBrand`, { token: admin, body: { id: 7, nameAr: 'Mango' } }));
    // A customer may not write at all: 403 before any complaint about the body.
    const customer = await server.api.login('customer');
    const r = await server.api.put(`${P}/UpdateProduct`, { token: customer, body: { id: cappuccino, nameAr: 'Cappuccino' } });
    expect(r.status).toBe(403);
  });
});
