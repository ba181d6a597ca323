import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import { APP, P, PA, PT, useMenuCallers } from '../support/menu';
import * as t from '../../server/db/schema';

/**
 * Menu management (SPEC.md 7 Menu management and the Branch availability switches): every call,
 * its bad input, and what the shop and the order pipeline make of each change. Who may call what: menu-access.test.ts.
 */
const SHOP_LIST = `${P}/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`;
const SHOP_DETAIL = `${PT}/GetProductItemWithSubItemDictionarywithProduct`;
const SAVE = `${APP}/Store/SaveNewOrderVS1`;

let menu: Awaited<ReturnType<typeof seededMenu>>;
const db = () => server.database.db;
let keySeq = 0;

const server = useServer();
const { as, refused, ok } = useMenuCallers(server);
beforeAll(async () => {
  menu = await seededMenu(server);
});

const order = (productId: number, additions: { additionId: number; quantity?: number }[] = [], quantity = 1) => server.api.post(SAVE, {
  ...as('customer'), headers: { 'idempotency-key': `menu-${++keySeq}` },
  body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId, quantity, additions }] },
});
const shopProducts = async (branchId = 1, brandId = 7) =>
  ((await ok(server.api.get(SHOP_LIST, { query: { brandId, branchId } }))) as { name: string; subtypes: { products: { id: number; name: string; price: number; available: boolean; unavailableUntil: string | null }[] }[] }[])
    .flatMap((ty) => ty.subtypes.flatMap((s) => s.products));

/** A fresh type → sub-type of brand 7 for a test's own products. */
async function freshSubtype(name: string) {
  const type = await ok(server.api.post(`${PT}/CreateProductType`, { ...as('brandmanager'), body: { brandId: 7, name: `${name} type` } }));
  const sub = await ok(server.api.post(`${PT}/CreateProductSubType`, { ...as('brandmanager'), body: { typeId: type.id, name: `${name} sub` } }));
  return { typeId: type.id as number, subtypeId: sub.id as number };
}

describe('ProductTypesAndSubtypes: types and sub-types', () => {
  it('creates, lists, renames, hides (the shop drops everything under it) and deletes', async () => {
    const { typeId, subtypeId } = await freshSubtype('Juices');
    const juice = await ok(server.api.post(`${P}/CreateProducts`, { ...as('brandmanager'), body: { subtypeId, name: 'Orange Juice', price: 1.1 } }));
    const dict = await ok(server.api.get(`${PT}/GetProductTypeWithSubtypesDictionary`, { ...as('brandmanager'), query: { brandId: 7 } }));
    expect(dict.find((ty: { id: number }) => ty.id === typeId)).toMatchObject({ name: 'Juices type', isHidden: false, subtypes: [{ id: subtypeId, name: 'Juices sub' }] });
    expect((await shopProducts()).map((p) => p.name)).toContain('Orange Juice');

    await ok(server.api.put(`${PT}/UpdateProductType`, { ...as('brandmanager'), body: { id: typeId, isHidden: true, name: 'Fresh juices' } }));
    expect((await shopProducts()).map((p) => p.name)).not.toContain('Orange Juice');
    expect((await server.api.get(SHOP_DETAIL, { query: { productid: juice.id } })).status).toBe(404);
    await refused(order(juice.id), 400, 'Orange Juice is not available at this branch right now.');
    await ok(server.api.put(`${PT}/UpdateProductType`, { ...as('brandmanager'), body: { id: typeId, isHidden: false } }));
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...as('brandmanager'), body: { id: subtypeId, isHidden: true } }));
    expect((await shopProducts()).map((p) => p.name)).not.toContain('Orange Juice');
    await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...as('brandmanager'), body: { id: subtypeId, isHidden: false, name: 'Cold pressed' } }));
    expect((await shopProducts()).map((p) => p.name)).toContain('Orange Juice');

    // Not empty: 409 with what to do; emptied: deleted (archived), gone from the tree.
    await refused(server.api.delete(`${PT}/DeleteProductSubType`, { ...as('brandmanager'), query: { productSubTypeId: subtypeId } }), 409, /still has 1 product/);
    await refused(server.api.delete(`${PT}/DeleteProductType`, { ...as('brandmanager'), query: { productTypeId: typeId } }), 409, /still has 1 sub-type/);
    await ok(server.api.delete(`${P}/DeleteProduct`, { ...as('brandmanager'), query: { productId: juice.id } }));
    expect(await ok(server.api.delete(`${PT}/DeleteProductSubType`, { ...as('brandmanager'), query: { productSubTypeId: subtypeId } }))).toBe(true);
    expect(await ok(server.api.delete(`${PT}/DeleteProductType`, { ...as('brandmanager'), query: { productTypeId: typeId } }))).toBe(true);
    const tree = await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...as('brandmanager'), query: { brandId: 7 } }));
    expect(tree.map((ty: { id: number }) => ty.id)).not.toContain(typeId);
  });

  it('bad input: empty or duplicate names, a type of another brand for a sub-type', async () => {
    await refused(server.api.post(`${PT}/CreateProductType`, { ...as('brandmanager'), body: { brandId: 7, name: '   ' } }), 400);
    await refused(server.api.post(`${PT}/CreateProductType`, { ...as('brandmanager'), body: { brandId: 7, name: ' coffee ' } }), 400, 'A product type of this brand is already called "coffee".');
    const [coffee] = await db().select().from(t.productTypes).where(and(eq(t.productTypes.brandId, 7), eq(t.productTypes.name, 'Coffee')));
    await refused(server.api.post(`${PT}/CreateProductSubType`, { ...as('brandmanager'), body: { typeId: coffee.id, name: 'HOT COFFEE' } }), 400, /already called/);
    await refused(server.api.post(`${PT}/CreateProductSubType`, { ...as('brandmanager'), body: { typeId: 99999, name: 'Nowhere' } }), 404);
  });
});

describe('Products: the product form', () => {
  it('creates a product with option groups, images and addition groups; the shop shows it and the order is priced by the server', async () => {
    const { subtypeId, typeId } = await freshSubtype('Teas');
    const extras = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, {
      ...as('brandmanager'), body: { productTypeId: typeId, name: 'Sweeteners', allowMultiple: true, isRequired: false, additions: [{ name: 'Honey', price: 0.1 }, { name: 'Date syrup', price: 0.15 }] },
    }));
    const created = await ok(server.api.post(`${P}/CreateProducts`, {
      ...as('brandmanager'),
      body: {
        subtypeId, name: 'Saffron Tea', description: 'Brewed with saffron.', price: 0.75, productDeliveryText: 'Ready in 5 minutes',
        images: ['/uploads/a.jpg', '/uploads/b.jpg'],
        optionGroups: [
          { name: 'Cup', isRequired: true, allowMultiple: false, subItems: [{ name: 'Small', price: 0 }, { name: 'Large', price: 0.25 }] },
          { name: 'Toppings', allowMultiple: true, subItems: [{ name: 'Mint', price: 0.05 }, { name: 'Lemon', price: 0.1 }] },
        ],
        additionGroupIds: [extras.id],
      },
    }));
    expect(created).toMatchObject({
      brandId: 7, typeId, subtypeId, name: 'Saffron Tea', price: 0.75, productImage: '/uploads/a.jpg', productSecondImage: '/uploads/b.jpg', productThirdImage: null,
      isHidden: false, additionGroupIds: [extras.id],
      optionGroups: [{ name: 'Cup', isRequired: true, subItems: [{ name: 'Small', price: 0 }, { name: 'Large', price: 0.25 }] }, { name: 'Toppings', allowMultiple: true }],
    });
    expect(await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...as('brandmanager'), query: { productId: created.id } }))).toEqual(created);

    // The shop, with no restart: listed, and its page has the groups and the addition group.
    expect((await shopProducts()).find((p) => p.id === created.id)).toMatchObject({ price: 0.75, available: true });
    const page = await ok(server.api.get(SHOP_DETAIL, { query: { productid: created.id, branchId: 1 } }));
    expect(page.optionGroups.map((g: { name: string }) => g.name)).toEqual(['Cup', 'Toppings', 'Sweeteners']);
    const [cup, toppings] = created.optionGroups;
    const large = cup.subItems[1].id, mint = toppings.subItems[0].id, honey = extras.subItems[0].id;
    await refused(order(created.id, [{ additionId: mint }]), 400, 'Please choose Cup for Saffron Tea.');
    const placed = await ok(order(created.id, [{ additionId: large }, { additionId: mint }, { additionId: honey }], 2));
    expect(placed.total).toBe(2.3); // (0.750 + 0.250 + 0.050 + 0.100) × 2
  });

  it('bad input is a 400 with nothing written', async () => {
    const { subtypeId } = await freshSubtype('Bad input');
    const create = (body: Record<string, unknown>) => server.api.post(`${P}/CreateProducts`, { ...as('brandmanager'), body: { subtypeId, name: 'Valid', price: 1, ...body } });
    await refused(create({ price: -0.5 }), 400);
    await refused(create({ price: 'cheap' }), 400);
    await refused(create({ price: 1.2345 }), 400, 'price: a price has at most 3 decimals (KD).');
    await refused(create({ images: ['/uploads/1.jpg', '/uploads/2.jpg', '/uploads/3.jpg', '/uploads/4.jpg'] }), 400);
    await refused(create({ images: ['/uploads/1.jpg'], productImage: '/uploads/2.jpg' }), 400, /not both/);
    await refused(create({ images: ['javascript:alert(1)'] }), 400);
    await refused(create({ optionGroups: [{ name: 'Empty', subItems: [] }] }), 400);
    await refused(create({ optionGroups: [{ name: 'Priced', subItems: [{ name: 'A', price: -1 }] }] }), 400);
    await refused(create({ additionGroupIds: [99999] }), 400, 'There is no addition group 99999 of this brand.');
    await refused(create({ name: 'Espresso', subtypeId: (await db().select().from(t.products).where(eq(t.products.id, menu.product('Espresso'))))[0].subtypeId }), 400, 'A product in this sub-type is already called "Espresso".');
    await refused(create({ subtypeId: 99999 }), 404);
    const valid = await ok(create({}));
    await refused(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: valid.id, price: -1 } }), 400);
    await refused(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: valid.id, optionGroups: [{ id: 99999, name: 'Stolen', subItems: [{ name: 'x', price: 0 }] }] } }), 400, /not a group of this product/);
    await refused(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: 99999, price: 1 } }), 404);
  });

  it('a new price shows on the next load and an old cart is charged it; a new required group is enforced', async () => {
    const cookie = menu.product('Pistachio Cookie');
    await ok(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: cookie, price: 0.7 } }));
    expect((await shopProducts()).find((p) => p.id === cookie)?.price).toBe(0.7);
    // The cart still believes 0.650; the server charges 0.700.
    const placed = await ok(order(cookie, [], 3));
    expect(placed.total).toBe(2.1);
    const [line] = await db().select().from(t.orderItems).where(eq(t.orderItems.orderId, placed.orderId));
    expect(line).toMatchObject({ unitPrice: '0.700', lineTotal: '2.100' });

    const product = await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...as('brandmanager'), query: { productId: cookie } }));
    const updated = await ok(server.api.put(`${P}/UpdateProduct`, {
      ...as('brandmanager'), body: { id: cookie, optionGroups: [...product.optionGroups, { name: 'Box', isRequired: true, subItems: [{ name: 'Paper bag', price: 0 }] }] },
    }));
    await refused(order(cookie), 400, 'Please choose Box for Pistachio Cookie.');
    await ok(order(cookie, [{ additionId: updated.optionGroups.at(-1).subItems[0].id }]));
    await ok(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: cookie, optionGroups: [], price: 0.65 } }));
    await ok(order(cookie));
  });

  it('keeps sub-item ids through an edit, and a sub-item that no longer exists is refused in an order', async () => {
    const cappuccino = menu.product('Cappuccino');
    const before = await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...as('admin'), query: { productId: cappuccino } }));
    const oat = menu.option('Cappuccino', 'Milk', 'Oat');
    const groups = before.optionGroups.map((g: { id: number; name: string; allowMultiple: boolean; isRequired: boolean; subItems: { id: number; name: string; price: number }[] }) => ({
      id: g.id, name: g.name, allowMultiple: g.allowMultiple, isRequired: g.isRequired,
      subItems: g.subItems.filter((s) => s.id !== oat).map((s) => ({ id: s.id, name: s.name, price: s.name === 'Large' ? 0.6 : s.price })),
    }));
    const after = await ok(server.api.put(`${P}/UpdateProduct`, { ...as('admin'), body: { id: cappuccino, optionGroups: groups } }));
    expect(after.optionGroups[0].subItems.map((s: { id: number }) => s.id)).toEqual(before.optionGroups[0].subItems.map((s: { id: number }) => s.id));
    await refused(order(cappuccino, [{ additionId: menu.option('Cappuccino', 'Size', 'Small') }, { additionId: oat }]), 400, `Addition #${oat} is not an option of Cappuccino.`);
    const large = await ok(order(cappuccino, [{ additionId: menu.option('Cappuccino', 'Size', 'Large') }]));
    expect(large.total).toBe(1.85);
  });

  it('deletes and duplicates; image deletes one at a time', async () => {
    const latte = menu.product('Spanish Latte');
    expect(await ok(server.api.delete(`${P}/DeleteProductSecondImage`, { ...as('brandmanager'), query: { productId: latte } }))).toBe(true);
    const row = (await db().select().from(t.products).where(eq(t.products.id, latte)))[0];
    expect([row.productImage, row.productSecondImage, row.productThirdImage]).toEqual(['/images/products/latte.svg', null, '/images/products/latte-3.svg']);
    await ok(server.api.delete(`${P}/DeleteProductImage`, { ...as('brandmanager'), query: { productId: latte } }));
    await ok(server.api.delete(`${P}/DeleteProductThirdImage`, { ...as('brandmanager'), query: { productId: latte } }));
    expect((await ok(server.api.get(SHOP_DETAIL, { query: { productid: latte } }))).productImage).toBeNull();

    const copy = await ok(server.api.post(`${P}/DuplicateProduct`, { ...as('brandmanager'), body: { productId: latte } }));
    expect(copy).toMatchObject({ name: 'Spanish Latte (copy)', isHidden: true, price: 1.5 });
    expect(copy.optionGroups.map((g: { name: string }) => g.name)).toEqual(['Size', 'Milk', 'Additions']);
    expect(copy.optionGroups[0].subItems[0].id).not.toBe(menu.option('Spanish Latte', 'Size', 'Small'));
    const again = await ok(server.api.post(`${P}/DuplicateProduct`, { ...as('brandmanager'), body: { productId: latte } }));
    expect(again.name).toBe('Spanish Latte (copy 2)');
    expect((await shopProducts()).map((p) => p.id)).not.toContain(copy.id); // hidden until shown
  });
});

describe('orders keep what was sold', () => {
  it('an order keeps the old name, options and price after the product is renamed, repriced and deleted', async () => {
    const { subtypeId } = await freshSubtype('History');
    const scone = await ok(server.api.post(`${P}/CreateProducts`, {
      ...as('brandmanager'), body: { subtypeId, name: 'Scone', price: 0.8, optionGroups: [{ name: 'Jam', isRequired: true, subItems: [{ name: 'Strawberry', price: 0.1 }] }] },
    }));
    const placed = await ok(order(scone.id, [{ additionId: scone.optionGroups[0].subItems[0].id }], 2));
    const detail = () => ok(server.api.get(`${APP}/Store/GetOrderDetail`, { ...as('customer'), query: { orderId: placed.orderId } }));
    const was = await detail();

    await ok(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: scone.id, name: 'Royal Scone', price: 2, optionGroups: [{ id: scone.optionGroups[0].id, name: 'Spread', isRequired: true, subItems: [{ name: 'Cream', price: 0.5 }] }] } }));
    expect(await ok(server.api.delete(`${P}/DeleteProduct`, { ...as('brandmanager'), query: { productId: scone.id } }))).toBe(true);

    const now = await detail();
    expect(now).toEqual(was);
    expect(JSON.stringify(now)).toContain('Scone');
    expect(JSON.stringify(now)).toContain('Strawberry');
    expect(JSON.stringify(now)).not.toContain('Royal');
    expect(now.total).toBe(1.8);
    // Archived, not removed: gone from the shop, the admin tree and orders; the order row still points at it.
    expect((await db().select().from(t.products).where(eq(t.products.id, scone.id)))[0].archivedAt).not.toBeNull();
    expect((await server.api.get(SHOP_DETAIL, { query: { productid: scone.id } })).status).toBe(404);
    const tree = await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...as('brandmanager'), query: { brandId: 7 } }));
    expect(JSON.stringify(tree)).not.toContain('Royal Scone');
    await refused(order(scone.id), 400, `Product #${scone.id} is not on the menu of this brand.`);
    await refused(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: scone.id, price: 1 } }), 404);
  });
});

describe('ProductTypesAndSubtypes: items and sub-items', () => {
  it('adds, changes and removes an option group and its sub-items', async () => {
    const cookie = menu.product('Pistachio Cookie');
    await refused(server.api.post(`${PT}/CreateProductItem`, { ...as('brandmanager'), body: { productId: cookie, name: 'Empty', subItems: [] } }), 400);
    const group = await ok(server.api.post(`${PT}/CreateProductItem`, { ...as('brandmanager'), body: { productId: cookie, name: 'Dip', allowMultiple: false, isRequired: false, subItems: [{ name: 'Chocolate', price: 0.2 }] } }));
    expect(group).toMatchObject({ productId: cookie, brandId: 7, name: 'Dip', subItems: [{ name: 'Chocolate', price: 0.2 }] });
    const milk = await ok(server.api.post(`${PT}/CreateProductSubItem`, { ...as('brandmanager'), body: { itemId: group.id, name: 'Milk', price: 0.15 } }));
    await refused(server.api.post(`${PT}/CreateProductSubItem`, { ...as('brandmanager'), body: { itemId: group.id, name: 'Gold', price: -1 } }), 400);
    expect(await ok(server.api.put(`${PT}/UpdateProductsubitem`, { ...as('brandmanager'), body: { id: milk.id, price: 0.25 } }))).toMatchObject({ id: milk.id, price: 0.25, name: 'Milk' });
    expect(await ok(server.api.put(`${PT}/UpdateProductitem`, { ...as('brandmanager'), body: { id: group.id, isRequired: true } }))).toMatchObject({ isRequired: true });
    await refused(order(cookie), 400, 'Please choose Dip for Pistachio Cookie.');
    expect((await ok(order(cookie, [{ additionId: milk.id }]))).total).toBe(0.9);
    await ok(server.api.delete(`${PT}/DeleteISubItem`, { ...as('brandmanager'), query: { subItemId: milk.id } }));
    await refused(server.api.delete(`${PT}/DeleteISubItem`, { ...as('brandmanager'), query: { subItemId: group.subItems[0].id } }), 400, /last item of "Dip"/);
    await ok(server.api.delete(`${PT}/DeleteItems`, { ...as('brandmanager'), query: { itemId: group.id } }));
    await ok(order(cookie));
    // An addition group is not a product item, and the other way round.
    const [sweeteners] = await db().select().from(t.optionGroups).where(eq(t.optionGroups.name, 'Sweeteners'));
    await refused(server.api.put(`${PT}/UpdateProductitem`, { ...as('brandmanager'), body: { id: sweeteners.id, name: 'x' } }), 404);
    await refused(server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...as('brandmanager'), body: { id: menu.group('Cappuccino', 'Size'), name: 'x' } }), 404);
  });
});

describe('ProductAddition', () => {
  it('addition groups of a product type: create, list, tree, apply, change, delete', async () => {
    const { typeId, subtypeId } = await freshSubtype('Additions');
    await refused(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...as('brandmanager'), body: { productTypeId: typeId, name: 'None', additions: [] } }), 400);
    const group = await ok(server.api.post(`${PA}/CreateNewProductAdditionsGroup`, { ...as('brandmanager'), body: { productTypeId: typeId, name: 'Sauces', additions: [{ name: 'Garlic', price: 0.1 }] } }));
    expect(group).toMatchObject({ productId: null, productTypeId: typeId, allowMultiple: true, isRequired: false });
    const one = await ok(server.api.post(`${PA}/CreateProductNewAddition`, { ...as('brandmanager'), body: { additionGroupId: group.id, name: 'Chili', price: 0.12 } }));
    const more = await ok(server.api.post(`${PA}/CreateProductAdditions`, { ...as('brandmanager'), body: { additionGroupId: group.id, additions: [{ name: 'Tahini', price: 0.1 }, { name: 'Pickles', price: 0.05 }] } }));
    expect(more.map((a: { name: string }) => a.name)).toEqual(['Tahini', 'Pickles']);
    await refused(server.api.post(`${PA}/CreateProductAdditions`, { ...as('brandmanager'), body: { additionGroupId: group.id, additions: [{ name: 'Bad', price: 0.0001 }] } }), 400);
    expect(await ok(server.api.put(`${PA}/UpdateProductAddition`, { ...as('brandmanager'), body: { id: one.id, price: 0.2 } }))).toMatchObject({ price: 0.2 });
    expect(await ok(server.api.put(`${PA}/UpdateProductAdditionsGroup`, { ...as('brandmanager'), body: { id: group.id, allowMultiple: false } }))).toMatchObject({ allowMultiple: false });

    const byType = await ok(server.api.get(`${PA}/GetProductAdditionsGroupByProductTypeId`, { ...as('brandmanager'), query: { productTypeId: typeId } }));
    expect(byType.map((g: { name: string; subItems: { name: string }[] }) => [g.name, g.subItems.map((s) => s.name)])).toEqual([['Sauces', ['Garlic', 'Chili', 'Tahini', 'Pickles']]]);
    expect(await ok(server.api.get(`${PA}/GetProductSubTypeListByTypeIdAsync`, { ...as('brandmanager'), query: { typeId } }))).toMatchObject([{ id: subtypeId }]);
    const tree = await ok(server.api.get(`${PA}/GetProductAdditionsTreeView`, { ...as('brandmanager'), query: { brandId: 7 } }));
    expect(tree.find((ty: { id: number }) => ty.id === typeId).additionGroups.map((g: { id: number }) => g.id)).toEqual([group.id]);

    const wrap = await ok(server.api.post(`${P}/CreateProducts`, { ...as('brandmanager'), body: { subtypeId, name: 'Falafel Wrap', price: 1 } }));
    const linked = await ok(server.api.post(`${PA}/CreateProductAdditionsGroup`, { ...as('brandmanager'), body: { productId: wrap.id, additionGroupId: group.id } }));
    expect(linked.additionGroupIds).toEqual([group.id]);
    await refused(order(wrap.id, [{ additionId: one.id }, { additionId: more[0].id }]), 400, 'Please choose only one Sauces for Falafel Wrap.');
    expect((await ok(order(wrap.id, [{ additionId: one.id }]))).total).toBe(1.2);

    await ok(server.api.delete(`${PA}/DeleteProductAddition`, { ...as('brandmanager'), query: { additionId: one.id } }));
    await refused(order(wrap.id, [{ additionId: one.id }]), 400, `Addition #${one.id} is not an option of Falafel Wrap.`);
    await refused(server.api.delete(`${PA}/DeleteProductAddition`, { ...as('brandmanager'), query: {} }), 400, 'Give either additionId or additionGroupId.');
    await ok(server.api.delete(`${PA}/DeleteProductAddition`, { ...as('brandmanager'), query: { additionGroupId: group.id } }));
    expect((await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...as('brandmanager'), query: { productId: wrap.id } }))).additionGroupIds).toEqual([]);
  });
});

describe('Branch availability switches and "sold out until"', () => {
  const SWITCH_P = `${APP}/Branch/GetProductSwitchForBranchUser`;
  const SWITCH_A = `${APP}/Branch/GetAdditionSwitchForBranchUser`;

  it('a branch user marks a product sold out until a time: the shop shows it unavailable, an order is refused, and it comes back by itself', async () => {
    const croissant = menu.product('Butter Croissant');
    const warmed = menu.option('Butter Croissant', 'Serving', 'Warmed');
    const until = new Date(Date.now() + 2 * 3600_000).toISOString();
    await refused(server.api.get(SWITCH_P, { ...as('branchuser'), query: { productId: croissant, branchId: 1, Switch: false, unavailableUntil: 'tomorrow' } }), 400);
    await refused(server.api.get(SWITCH_P, { ...as('branchuser'), query: { productId: croissant, branchId: 1, Switch: false, unavailableUntil: new Date(Date.now() - 60_000).toISOString() } }), 400, /future/);
    await refused(server.api.get(SWITCH_P, { ...as('branchuser'), query: { productId: croissant, branchId: 1, Switch: false, unavailableUntil: new Date(Date.now() + 9 * 86_400_000).toISOString() } }), 400, /at most 7 days/);
    const state = await ok(server.api.get(SWITCH_P, { ...as('branchuser'), query: { productId: croissant, branchId: 1, Switch: false, unavailableUntil: until } }));
    expect(state).toEqual({ branchId: 1, id: croissant, available: false, unavailableUntil: until });

    expect((await shopProducts()).find((p) => p.id === croissant)).toMatchObject({ available: false, unavailableUntil: until });
    expect(await ok(server.api.get(SHOP_DETAIL, { query: { productid: croissant, branchId: 1 } }))).toMatchObject({ available: false, unavailableUntil: until });
    await refused(order(croissant, [{ additionId: warmed }]), 400, /^Butter Croissant is sold out at this branch until \d\d:\d\d\.$/);
    const tree = await ok(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtypeHideUnHide`, { ...as('branchuser'), query: { branchId: 1 } }));
    expect(tree.flatMap((ty: any) => ty.subtypes.flatMap((s: any) => s.products)).find((p: { id: number }) => p.id === croissant)).toMatchObject({ available: false, unavailableUntil: until });

    // The time passes (moved back in the database): available again, with no job having run.
    await db().update(t.branchHiddenProducts).set({ unavailableUntil: new Date(Date.now() - 1000) }).where(eq(t.branchHiddenProducts.productId, croissant));
    expect((await shopProducts()).find((p) => p.id === croissant)).toMatchObject({ available: true, unavailableUntil: null });
    await ok(order(croissant, [{ additionId: warmed }]));
    // A flip with no Switch reads the expired row as "on", so it switches off (until switched on).
    expect(await ok(server.api.get(SWITCH_P, { ...as('branchuser'), query: { productId: croissant, branchId: 1 } }))).toMatchObject({ available: false, unavailableUntil: null });
    await refused(order(croissant, [{ additionId: warmed }]), 400, 'Butter Croissant is not available at this branch right now.');
    expect(await ok(server.api.get(SWITCH_P, { ...as('brandmanager'), query: { productId: croissant, branchId: 1 } }))).toMatchObject({ available: true });
    await ok(order(croissant, [{ additionId: warmed }]));
  });

  it('an addition or option switched off for the branch is left out of the product page and refused in an order', async () => {
    const cappuccino = menu.product('Cappuccino');
    const vanilla = menu.option('Cappuccino', 'Additions', 'Vanilla syrup');
    const small = menu.option('Cappuccino', 'Size', 'Small');
    const until = new Date(Date.now() + 3600_000).toISOString();
    await ok(server.api.get(SWITCH_A, { ...as('branchuser'), query: { subItemId: vanilla, branchId: 1, Switch: false, unavailableUntil: until } }));
    const page = await ok(server.api.get(SHOP_DETAIL, { query: { productid: cappuccino, branchId: 1 } }));
    expect(page.optionGroups.find((g: { name: string }) => g.name === 'Additions').subItem.map((s: { id: number }) => s.id)).not.toContain(vanilla);
    await refused(order(cappuccino, [{ additionId: small }, { additionId: vanilla }]), 400, /^Vanilla syrup is sold out at this branch until/);
    const groups = await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionaryHideUnHide`, { ...as('branchuser'), query: { branchId: 1, productId: cappuccino } }));
    expect(groups.flatMap((g: any) => g.subItems).find((s: { id: number }) => s.id === vanilla)).toMatchObject({ available: false, unavailableUntil: until });
    await refused(server.api.get(SWITCH_A, { ...as('branchuser'), query: { subItemId: vanilla, branchId: 1, Switch: true, unavailableUntil: until } }), 400, /goes with switching the item off/);
    await ok(server.api.get(SWITCH_A, { ...as('branchuser'), query: { subItemId: vanilla, branchId: 1, Switch: true } }));
    await ok(order(cappuccino, [{ additionId: small }, { additionId: vanilla }]));
    // Every addition group of the brand, for the additions tab.
    const additions = await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionaryHideUnHide`, { ...as('branchuser'), query: { branchId: 1 } }));
    expect(additions.every((g: { productId: number | null }) => g.productId === null)).toBe(true);
  });
});

describe('Country: delivery areas of a brand', () => {
  it('hides an area: the shop stops offering it and the server refuses delivery there; unhide restores it', async () => {
    const GET_TREE = `${APP}/Country/GetDeliveryAreasTreeByBrandId`;
    const HIDE = `${APP}/Country/GetUpdateDeliveryAreaHide`;
    const tree = await ok(server.api.get(GET_TREE, { ...as('brandmanager'), query: { brandId: 7 } }));
    const area = tree.flatMap((r: any) => r.children).find((a: { deliveryFee: number | null }) => a.deliveryFee !== null);
    expect(area).toMatchObject({ isHidden: false });
    await refused(server.api.get(HIDE, { ...as('brandmanager'), query: { brandId: 7, areaId: area.parentId, isHide: true } }), 400, /hide the areas of a governorate one by one/);
    expect(await ok(server.api.get(HIDE, { ...as('brandmanager'), query: { brandId: 7, areaId: area.id, isHide: true } }))).toMatchObject({ id: area.id, isHidden: true });
    const again = await ok(server.api.get(GET_TREE, { ...as('admin'), query: { brandId: 7 } }));
    expect(again.flatMap((r: any) => r.children).find((a: { id: number }) => a.id === area.id).isHidden).toBe(true);
    const shopTree = await ok(server.api.get(`${APP}/Country/GetDeliveryAreasTreeByBrandIdForShop`, { query: { brandId: 7 } }));
    expect(shopTree.flatMap((r: any) => r.children).map((a: { id: number }) => a.id)).not.toContain(area.id);
    const deliver = () => server.api.post(SAVE, {
      ...as('customer'), headers: { 'idempotency-key': `menu-${++keySeq}` },
      body: {
        brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isHomeDeliver: true },
        customerDeliveryAddress: { areaId: area.id, regionId: area.parentId, block: '1', street: '2', house_no: '3' },
        products: [{ productId: menu.product('Pistachio Cookie'), quantity: 1 }],
      },
    });
    await refused(deliver(), 400, 'Sorry, we do not deliver to this area.');
    await ok(server.api.get(HIDE, { ...as('brandmanager'), query: { brandId: 7, areaId: area.id, isHide: false } }));
    expect((await deliver()).status).toBe(200);
  });
});

describe('history', () => {
  it('every menu write leaves an audit entry with who and what', async () => {
    const rows = await db().select().from(t.auditLog).orderBy(t.auditLog.id); // the first switch is branch user 4's (PostgreSQL returns no order otherwise)
    const resources = new Set(rows.map((r) => r.resource));
    for (const r of ['Product', 'ProductType', 'ProductSubType', 'ProductItem', 'ProductSubItem', 'ProductAdditionsGroup', 'ProductAddition', 'BranchProductSwitch', 'BranchAdditionSwitch', 'BrandDeliveryArea']) {
      expect(resources, r).toContain(r);
    }
    expect(rows.find((r) => r.resource === 'BranchProductSwitch')?.userId).toBe(4);
  });
});

describe('Products/GetProductsPricesForCustomer (checkout)', () => {
  it("answers today's prices of a cart's products and options, leaving out what is no longer on the menu", async () => {
    const PRICES = `${P}/GetProductsPricesForCustomer`;
    const flat = menu.product('Flat White');
    await ok(server.api.put(`${P}/UpdateProduct`, { ...as('brandmanager'), body: { id: flat, price: 1.45 } }));
    const ids = [flat, menu.product('Karak Tea', 8), 99999].map((id) => `productIds=${id}`).join('&');
    const answer = await ok(server.api.get(`${PRICES}?brandId=7&branchId=1&${ids}`));
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ id: flat, name: 'Flat White', price: 1.45, available: true });
    expect(answer[0].options.find((o: { id: number }) => o.id === menu.option('Flat White', 'Size', 'Large'))).toMatchObject({ price: 0.5, available: true });
    expect((await server.api.get(PRICES, { query: { brandId: 7, branchId: 2, productIds: flat } })).status).toBe(400);
  });
});
