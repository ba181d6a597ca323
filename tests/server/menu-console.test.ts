import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * What the /store console needs beyond the legacy calls' basics: an addition group edited as a
 * whole, renaming and reordering the tree (the `sort_order` column is the menu's order), and the
 * menu's history through AuditLog/GetEntityHistory, each with its bad input and its scope.
 */
const APP = '/api/services/app';
const PT = `${APP}/ProductTypesAndSubtypes`;
const P = `${APP}/Products`;
const PA = `${APP}/ProductAddition`;
const HISTORY = `${APP}/AuditLog/GetEntityHistory`;
const SHOP_LIST = `${P}/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`;

const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'anonymous';
const token = {} as Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });
const MENU_TABLES = ['product_types', 'product_subtypes', 'products', 'option_groups', 'option_items', 'product_addition_groups', 'audit_log'];
const counts = async () => Promise.all(MENU_TABLES.map((tb) => countRows(server, tb)));

const server = useServer();
beforeAll(async () => {
  for (const u of USERS) token[u] = await server.api.login(u);
  token.anonymous = undefined;
});

/** Calls and proves nothing was written to any menu table or the audit log. */
async function refused(res: Promise<{ status: number; body: any }>, status: number, message?: string | RegExp) {
  const before = await counts();
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (message) expect(r.body.error.message).toMatch(message);
  expect(await counts()).toEqual(before);
  return r;
}
const ok = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const bm = () => as('brandmanager');

async function freshType(name: string, brandId = 7, who: Who = 'brandmanager') {
  return (await ok(server.api.post(`${PT}/CreateProductType`, { ...as(who), body: { brandId, name } }))) as { id: number; sortOrder: number };
}
const subtype = async (typeId: number, name: string, who: Who = 'brandmanager') =>
  (await ok(server.api.post(`${PT}/CreateProductSubType`, { ...as(who), body: { typeId, name } }))) as { id: number; sortOrder: number };
const product = async (subtypeId: number, name: string, price = 1) =>
  (await ok(server.api.post(`${P}/CreateProducts`, { ...bm(), body: { subtypeId, name, price } }))) as { id: number; sortOrder: number };
const history = async (resource: string, id: number, who: Who = 'brandmanager') =>
  (await ok(server.api.get(HISTORY, { ...as(who), query: { resource, id } }))) as { data: { action: string; userName: string | null; before: any; after: any }[]; totalCount: number };

describe('an addition group edited as a whole (UpdateProductAdditionsGroup with additions)', () => {
  it('keeps the additions sent with an id (changing them), adds the new ones, removes the rest, in the order sent, in one history entry', async () => {
    const type = await freshType('Addition edit');
    const group = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...bm(), body: {
      productTypeId: type.id, name: 'Sauce', additions: [{ name: 'Garlic', price: 0.1 }, { name: 'Chili', price: 0.1 }, { name: 'Mayo', price: 0.05 }],
    } }));
    const [garlic, chili] = group.subItems;
    const auditBefore = await countRows(server, 'audit_log');
    const after = await ok(server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...bm(), body: {
      id: group.id, name: 'Sauces', isRequired: true,
      additions: [{ id: chili.id, name: 'Chili', price: 0.15 }, { name: 'Tahini', price: 0.2 }, { id: garlic.id, name: 'Garlic', price: 0.1 }],
    } }));
    expect(after).toMatchObject({ id: group.id, name: 'Sauces', isRequired: true });
    expect(after.subItems.map((s: { id: number; name: string; price: number }) => [s.name, s.price])).toEqual([['Chili', 0.15], ['Tahini', 0.2], ['Garlic', 0.1]]);
    expect(after.subItems[0].id).toBe(chili.id);
    expect(after.subItems[2].id).toBe(garlic.id);
    expect(await countRows(server, 'audit_log')).toBe(auditBefore + 1);
    const tree = await ok(server.api.get(`${PA}/GetProductAdditionsGroupByProductTypeId`, { ...bm(), query: { productTypeId: type.id } }));
    expect(tree[0].subItems.map((s: { name: string }) => s.name)).toEqual(['Chili', 'Tahini', 'Garlic']);
  });

  it('bad input is a 400 with nothing written: no additions, a 4-decimal or negative price, an addition of another group, an empty name', async () => {
    const type = await freshType('Addition bad');
    const a = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...bm(), body: { productTypeId: type.id, name: 'A', additions: [{ name: 'One', price: 0.1 }] } }));
    const b = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...bm(), body: { productTypeId: type.id, name: 'B', additions: [{ name: 'Two', price: 0.1 }] } }));
    const put = (body: Record<string, unknown>) => server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...bm(), body: { id: a.id, ...body } });
    await refused(put({ additions: [] }), 400);
    await refused(put({ additions: [{ name: 'One', price: 0.1234 }] }), 400, /at most 3 decimals/);
    await refused(put({ additions: [{ name: 'One', price: -1 }] }), 400);
    await refused(put({ additions: [{ name: 'One', price: 'free' }] }), 400);
    await refused(put({ additions: [{ id: b.subItems[0].id, name: 'Stolen', price: 0 }] }), 400, /not an item of this group/);
    await refused(put({ name: '   ' }), 400);
    await refused(put({ additions: [{ name: '', price: 0 }] }), 400);
  });
});

describe('renaming and reordering the menu tree', () => {
  it('a new sub-type and a new product go last; sortOrder in an update is the position among the siblings, and the shop follows', async () => {
    const type = await freshType('Order test');
    const [a, b, c] = [await subtype(type.id, 'Alpha'), await subtype(type.id, 'Beta'), await subtype(type.id, 'Gamma')];
    expect([a.sortOrder, b.sortOrder, c.sortOrder]).toEqual([0, 1, 2]);
    const names = async () => ((await ok(server.api.get(`${PT}/GetProductTypeWithSubtypesDictionary`, { ...bm(), query: { brandId: 7 } })))
      .find((ty: { id: number }) => ty.id === type.id).subtypes as { name: string; sortOrder: number }[]).map((s) => `${s.name}:${s.sortOrder}`);
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: c.id, sortOrder: 0 } }));
    expect(await names()).toEqual(['Gamma:0', 'Alpha:1', 'Beta:2']);
    // A position past the end puts it last.
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: c.id, sortOrder: 99 } }));
    expect(await names()).toEqual(['Alpha:0', 'Beta:1', 'Gamma:2']);
    // Renaming a sub-type keeps its place.
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: b.id, name: 'Beta Prime' } }));
    expect(await names()).toEqual(['Alpha:0', 'Beta Prime:1', 'Gamma:2']);

    const p1 = await product(a.id, 'First');
    const p2 = await product(a.id, 'Second');
    const p3 = await product(a.id, 'Third');
    expect([p1.sortOrder, p2.sortOrder, p3.sortOrder]).toEqual([0, 1, 2]);
    await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: p3.id, sortOrder: 1 } }));
    const shop = await ok(server.api.get(SHOP_LIST, { query: { brandId: 7, branchId: 1 } }));
    const inShop = shop.find((ty: { id: number }) => ty.id === type.id).subtypes.find((s: { id: number }) => s.id === a.id).products.map((p: { name: string }) => p.name);
    expect(inShop).toEqual(['First', 'Third', 'Second']);

    // Moving a type among the brand's types: the admin tree and the shop follow.
    const before = (await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...bm(), query: { brandId: 7 } }))).map((ty: { id: number }) => ty.id);
    await ok(server.api.put(`${PT}/UpdateProductType`, { ...bm(), body: { id: type.id, sortOrder: 0 } }));
    const tree = (await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...bm(), query: { brandId: 7 } }))) as { id: number; sortOrder: number }[];
    expect(tree.map((ty) => ty.id)).toEqual([type.id, ...before.filter((id: number) => id !== type.id)]);
    expect(tree.map((ty) => ty.sortOrder)).toEqual(tree.map((_, i) => i));
    const shopTypes = (await ok(server.api.get(SHOP_LIST, { query: { brandId: 7, branchId: 1 } }))).map((ty: { id: number }) => ty.id);
    expect(shopTypes[0]).toBe(type.id);

    // A product moved to another sub-type goes last there.
    const d = await product(b.id, 'In Beta');
    await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: p1.id, subtypeId: b.id } }));
    const moved = (await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...bm(), query: { brandId: 7 } })))
      .find((ty: { id: number }) => ty.id === type.id).subtypes.find((s: { id: number }) => s.id === b.id).products.map((p: { id: number }) => p.id);
    expect(moved).toEqual([d.id, p1.id]);
  });

  it('bad order or name is a 400 with nothing written; another brand is a 404', async () => {
    const type = await freshType('Order bad');
    const s = await subtype(type.id, 'Only');
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: s.id, sortOrder: -1 } }), 400);
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: s.id, sortOrder: 'first' } }), 400);
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: s.id, name: '' } }), 400);
    await refused(server.api.put(`${PT}/UpdateProductType`, { ...bm(), body: { id: type.id, sortOrder: 1.5 } }), 400);
    const type8 = await freshType('Brand 8 order', 8, 'admin');
    const s8 = await subtype(type8.id, 'Eight', 'admin');
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: s8.id, name: 'Renamed by 7' } }), 404);
    await refused(server.api.put(`${PT}/UpdateProductType`, { ...bm(), body: { id: type8.id, sortOrder: 0 } }), 404);
  });
});

describe('menu history (AuditLog/GetEntityHistory)', () => {
  it('serves the history of a product, a type, a sub-type, an addition group and an addition, newest first, with who', async () => {
    const type = await freshType('History');
    const sub = await subtype(type.id, 'History sub');
    const p = await product(sub.id, 'Logged Latte', 1.2);
    await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: p.id, price: 1.35 } }));
    await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: p.id, name: 'Logged Flat White' } }));
    const ph = await history('Product', p.id);
    expect(ph.data.map((e) => e.action)).toEqual(['update', 'update', 'create']);
    expect(ph.data[0]).toMatchObject({ userName: 'brandmanager', before: { name: 'Logged Latte' }, after: { name: 'Logged Flat White' } });
    expect(ph.data[1]).toMatchObject({ before: { price: 1.2 }, after: { price: 1.35 } });

    await ok(server.api.put(`${PT}/UpdateProductType`, { ...bm(), body: { id: type.id, name: 'History renamed' } }));
    expect((await history('ProductType', type.id)).data.map((e) => e.action)).toEqual(['update', 'create']);
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm(), body: { id: sub.id, isHidden: true } }));
    expect((await history('ProductSubType', sub.id)).data[0]).toMatchObject({ action: 'update', before: { isHidden: false }, after: { isHidden: true } });

    const group = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...bm(), body: { productTypeId: type.id, name: 'Syrups', additions: [{ name: 'Vanilla', price: 0.1 }] } }));
    await ok(server.api.put(`${PA}/UpdateProductAddition`, { ...bm(), body: { id: group.subItems[0].id, price: 0.15 } }));
    expect((await history('ProductAddition', group.subItems[0].id)).data[0]).toMatchObject({ action: 'update', after: { price: 0.15 } });
    // A deleted addition group keeps its history, for those who may see its brand.
    await ok(server.api.delete(`${PA}/DeleteProductAddition`, { ...bm(), query: { additionGroupId: group.id } }));
    expect((await history('ProductAdditionsGroup', group.id)).data.map((e) => e.action)).toEqual(['delete', 'create']);
    // A deleted (archived) product keeps its history too.
    await ok(server.api.delete(`${P}/DeleteProduct`, { ...bm(), query: { productId: p.id } }));
    expect((await history('Product', p.id)).data[0].action).toBe('delete');
  });

  it("scope: brand 7's manager cannot read brand 8's menu history; roles without the menu get 403", async () => {
    const type8 = await freshType('Hidden history', 8, 'admin');
    const group8 = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...as('admin'), body: { productTypeId: type8.id, name: 'Eight', additions: [{ name: 'X', price: 0 }] } }));
    await refused(server.api.get(HISTORY, { ...bm(), query: { resource: 'ProductType', id: type8.id } }), 404);
    await refused(server.api.get(HISTORY, { ...bm(), query: { resource: 'ProductAdditionsGroup', id: group8.id } }), 404);
    // Once deleted the row is gone, and its entries stay scoped by the brand they belonged to.
    await ok(server.api.delete(`${PA}/DeleteProductAddition`, { ...as('admin'), query: { additionGroupId: group8.id } }));
    expect((await history('ProductAdditionsGroup', group8.id)).data).toEqual([]);
    expect((await history('ProductAdditionsGroup', group8.id, 'admin')).data.map((e) => e.action)).toEqual(['delete', 'create']);
    // The company admin of company 1 reaches brand 7 only.
    await refused(server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'ProductType', id: type8.id } }), 404);
    await refused(server.api.get(HISTORY, { ...as('branchuser'), query: { resource: 'Product', id: 1 } }), 403);
    await refused(server.api.get(HISTORY, { ...as('customer'), query: { resource: 'Product', id: 1 } }), 403);
    await refused(server.api.get(HISTORY, { query: { resource: 'Product', id: 1 } }), 401);
  });
});

describe("ProductAddition: brand 7's manager cannot touch brand 8's additions", () => {
  it('every ProductAddition call on a brand 8 row is a 404 (or the 400 naming brandId), with nothing written', async () => {
    const type8 = await freshType('Additions of 8', 8, 'admin');
    const group8 = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...as('admin'), body: { productTypeId: type8.id, name: 'Toppings', additions: [{ name: 'Nuts', price: 0.1 }, { name: 'Honey', price: 0.1 }] } }));
    const sub8 = await subtype(type8.id, 'Bowls', 'admin');
    const [bread] = await server.database.db.select().from(t.products).where(eq(t.products.brandId, 8)).limit(1);
    const own = await freshType('Additions of 7');
    const ownSub = await subtype(own.id, 'Own');
    const ownProduct = await product(ownSub.id, 'Own Bowl');
    const addition8 = group8.subItems[0].id;
    await refused(server.api.get(`${PA}/GetProductSubTypeListByTypeIdAsync`, { ...bm(), query: { typeId: type8.id } }), 404);
    await refused(server.api.get(`${PA}/GetProductAdditionsTreeView`, { ...bm(), query: { brandId: 8 } }), 400, 'There is no brand 8 you can manage.');
    await refused(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...bm(), body: { productTypeId: type8.id, name: 'Mine', additions: [{ name: 'Y', price: 0 }] } }), 404);
    await refused(server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...bm(), body: { id: group8.id, name: 'Mine' } }), 404);
    await refused(server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...bm(), body: { id: group8.id, additions: [{ name: 'Mine', price: 0 }] } }), 404);
    await refused(server.api.post(`${PA}/CreateProductNewAddition`, { ...bm(), body: { additionGroupId: group8.id, name: 'Mine', price: 0 } }), 404);
    await refused(server.api.post(`${PA}/CreateProductAdditions`, { ...bm(), body: { additionGroupId: group8.id, additions: [{ name: 'Mine', price: 0 }] } }), 404);
    await refused(server.api.put(`${PA}/UpdateProductAddition`, { ...bm(), body: { id: addition8, price: 9 } }), 404);
    await refused(server.api.delete(`${PA}/DeleteProductAddition`, { ...bm(), query: { additionId: addition8 } }), 404);
    await refused(server.api.delete(`${PA}/DeleteProductAddition`, { ...bm(), query: { additionGroupId: group8.id } }), 404);
    // Linking: brand 8's group to an own product, an own group to brand 8's product.
    await refused(server.api.post(`${PA}/CreateProductAdditionsGroup`, { ...bm(), body: { productId: ownProduct.id, additionGroupId: group8.id } }), 404);
    await refused(server.api.post(`${PA}/CreateProductAdditionsGroup`, { ...bm(), body: { productId: bread.id, additionGroupId: group8.id } }), 404);
    await refused(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: ownProduct.id, additionGroupIds: [group8.id] } }), 400, /no addition group/);
    await refused(server.api.post(`${P}/CreateProducts`, { ...bm(), body: { subtypeId: sub8.id, name: 'Sneaky', price: 1 } }), 404);
    expect((await server.database.db.select().from(t.optionItems).where(eq(t.optionItems.id, addition8)))[0].price).toBe('0.100');
  });
});
