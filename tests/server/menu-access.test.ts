import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import { APP, P, PA, PT, useMenuCallers } from '../support/menu';
import * as t from '../../server/db/schema';

/** Menu management's authorisation and scope; every call's behaviour: menu.test.ts. */
let menu: Awaited<ReturnType<typeof seededMenu>>;
const db = () => server.database.db;

const server = useServer();
const { as, refused } = useMenuCallers(server);
beforeAll(async () => {
  menu = await seededMenu(server);
});

describe('who may call what', () => {
  it('401 without a token, 403 for roles without the capability, before any input check', async () => {
    await refused(server.api.post(`${P}/CreateProducts`, { body: { nonsense: true } }), 401);
    for (const who of ['customer', 'branchuser'] as const) {
      await refused(server.api.post(`${P}/CreateProducts`, { ...as(who), body: { nonsense: true } }), 403);
      await refused(server.api.get(`${PT}/GetProductTypeWithSubtypesDictionary`, { ...as(who), query: { brandId: 7 } }), 403);
    }
    // /MenuManagement is ADMIN, BRAND_MANAGER and BRANCH_USER; /DeliveryAreas ADMIN and BRAND_MANAGER (SPEC.md 2.2).
    await refused(server.api.get(`${APP}/Branch/GetProductSwitchForBranchUser`, { ...as('companyadmin'), query: { productId: 1, branchId: 1 } }), 403);
    await refused(server.api.get(`${APP}/Country/GetUpdateDeliveryAreaHide`, { ...as('companyadmin'), query: { brandId: 7, areaId: 2, isHide: true } }), 403);
    await refused(server.api.get(`${APP}/Country/GetUpdateDeliveryAreaHide`, { ...as('branchuser'), query: { brandId: 7, areaId: 2, isHide: true } }), 403);
  });

  it("brand 7's manager cannot read or touch brand 8's menu", async () => {
    const bread = menu.product('Sourdough Loaf', 8);
    const warmed = menu.option('Zaatar Manakeesh', 'Serving', 'Warmed', 8);
    const warmGroup = (await db().select().from(t.optionItems).where(eq(t.optionItems.id, warmed)))[0].groupId;
    const [type8] = await db().select().from(t.productTypes).where(eq(t.productTypes.brandId, 8)).limit(1);
    const [sub8] = await db().select().from(t.productSubtypes).where(eq(t.productSubtypes.typeId, type8.id)).limit(1);
    const bm = as('brandmanager');
    await refused(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtype`, { ...bm, query: { brandId: 8 } }), 400, 'There is no brand 8 you can manage.');
    await refused(server.api.post(`${PT}/CreateProductType`, { ...bm, body: { brandId: 8, name: 'Mine now' } }), 400, 'There is no brand 8 you can manage.');
    await refused(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...bm, query: { productId: bread } }), 404);
    await refused(server.api.put(`${P}/UpdateProduct`, { ...bm, body: { id: bread, price: 0.001 } }), 404);
    await refused(server.api.delete(`${P}/DeleteProduct`, { ...bm, query: { productId: bread } }), 404);
    await refused(server.api.delete(`${P}/DeleteProductImage`, { ...bm, query: { productId: bread } }), 404);
    await refused(server.api.post(`${P}/DuplicateProduct`, { ...bm, body: { productId: bread } }), 404);
    await refused(server.api.post(`${P}/CreateProducts`, { ...bm, body: { subtypeId: sub8.id, name: 'Intruder', price: 1 } }), 404);
    await refused(server.api.put(`${PT}/UpdateProductType`, { ...bm, body: { id: type8.id, isHidden: true } }), 404);
    await refused(server.api.delete(`${PT}/DeleteProductSubType`, { ...bm, query: { productSubTypeId: sub8.id } }), 404);
    await refused(server.api.post(`${PT}/CreateProductSubItem`, { ...bm, body: { itemId: warmGroup, name: 'Burnt', price: 0 } }), 404);
    await refused(server.api.put(`${PT}/UpdateProductsubitem`, { ...bm, body: { id: warmed, price: 9 } }), 404);
    await refused(server.api.delete(`${PT}/DeleteISubItem`, { ...bm, query: { subItemId: warmed } }), 404);
    await refused(server.api.delete(`${PT}/DeleteItems`, { ...bm, query: { itemId: warmGroup } }), 404);
    await refused(server.api.get(`${PA}/GetProductAdditionsGroupByProductTypeId`, { ...bm, query: { productTypeId: type8.id } }), 404);
    await refused(server.api.get(`${APP}/Country/GetDeliveryAreasTreeByBrandId`, { ...bm, query: { brandId: 8 } }), 400);
    await refused(server.api.get(`${APP}/Country/GetUpdateDeliveryAreaHide`, { ...bm, query: { brandId: 8, areaId: 2, isHide: true } }), 400);
    // Switches: another brand's branch, or another brand's product at an own branch.
    await refused(server.api.get(`${APP}/Branch/GetProductSwitchForBranchUser`, { ...bm, query: { productId: bread, branchId: 2 } }), 404);
    await refused(server.api.get(`${APP}/Branch/GetProductSwitchForBranchUser`, { ...bm, query: { productId: bread, branchId: 1 } }), 404);
    await refused(server.api.get(`${APP}/Branch/GetAdditionSwitchForBranchUser`, { ...bm, query: { subItemId: warmed, branchId: 1, Switch: false } }), 404);
    // A branch user switches only their own branch.
    await refused(server.api.get(`${APP}/Branch/GetProductSwitchForBranchUser`, { ...as('branchuser'), query: { productId: bread, branchId: 2 } }), 404);
    await refused(server.api.get(`${P}/GetProductsGroupedByTypeAndSubtypeHideUnHide`, { ...as('branchuser'), query: { branchId: 2 } }), 404);
    // The company admin of company 1 reaches brand 7, not brand 8.
    await refused(server.api.put(`${P}/UpdateProduct`, { ...as('companyadmin'), body: { id: bread, price: 0.001 } }), 404);
    expect((await db().select().from(t.products).where(eq(t.products.id, bread)))[0].price).toBe('1.800');
  });
});
