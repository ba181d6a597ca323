import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows, startTestServer, type TestServer } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import * as t from '../../server/db/schema';

/**
 * Issue 22: what the declarations say. Calories on products end to end (the console's calls, the
 * shop's product page), and the defineResource hooks the hand-made routes moved onto: a body per
 * kind (reward programs), work after a write in its transaction (a constant discount's group),
 * declared switches (company access and pause).
 */
const APP = '/api/services/app';
const P = `${APP}/Products`;
const PT = `${APP}/ProductTypesAndSubtypes`;
const RP = `${APP}/RewardPrograms`;

let server: TestServer;
let menu: Awaited<ReturnType<typeof seededMenu>>;
const token: Record<string, string> = {};
const db = () => server.database.db;

beforeAll(async () => {
  server = await startTestServer();
  menu = await seededMenu(server);
  for (const u of ['admin', 'brandmanager', 'companyadmin']) token[u] = await server.api.login(u);
});
afterAll(async () => { await server?.close(); });

const ok = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
/** Refused with `status`, and nothing written to the products or the audit log. */
async function refused(res: Promise<{ status: number; body: any }>, status: number, member?: string) {
  const before = [await countRows(server, 'products'), await countRows(server, 'audit_log')];
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (member) expect(JSON.stringify(r.body.error)).toContain(member);
  expect([await countRows(server, 'products'), await countRows(server, 'audit_log')]).toEqual(before);
}

describe('calories on products', () => {
  const bm = () => ({ token: token.brandmanager });
  const subtypeOf = async (id: number) => (await db().select().from(t.products).where(eq(t.products.id, id)))[0].subtypeId;

  it('is kept, answered, changed and cleared; the shop shows it', async () => {
    const subtypeId = await subtypeOf(menu.product('Espresso'));
    const created = await ok(server.api.post(`${P}/CreateProducts`, { ...bm(), body: { subtypeId, name: 'Calorie latte', price: 1.5, calories: 180 } }));
    expect(created.calories).toBe(180);
    const read = async () => ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...bm(), query: { productId: created.id } }));
    expect((await read()).calories).toBe(180);
    const shop = async () => ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionarywithProduct`, { query: { productid: created.id, branchId: 1 } }));
    expect((await shop()).calories).toBe(180);

    expect((await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: created.id, calories: 0 } }))).calories).toBe(0);
    expect((await shop()).calories).toBe(0);
    // A change of another field leaves it as it was.
    await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: created.id, description: 'Milky' } }));
    expect((await read()).calories).toBe(0);
    expect((await ok(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: created.id, calories: null } }))).calories).toBeNull();
    expect((await shop()).calories).toBeNull();
    const [row] = await db().select().from(t.products).where(eq(t.products.id, created.id));
    expect(row.calories).toBeNull();
  });

  it('a product without it says null; a copy keeps it', async () => {
    expect((await ok(server.api.get(`${PT}/GetProductItemWithSubItemDictionary`, { ...bm(), query: { productId: menu.product('Espresso') } }))).calories).toBeNull();
    const subtypeId = await subtypeOf(menu.product('Espresso'));
    const source = await ok(server.api.post(`${P}/CreateProducts`, { ...bm(), body: { subtypeId, name: 'Copied bun', price: 1, calories: 320 } }));
    const copy = await ok(server.api.post(`${P}/DuplicateProduct`, { ...bm(), body: { productId: source.id } }));
    expect(copy.calories).toBe(320);
  });

  it('refuses what is not 0..10000 kcal in whole numbers with a 400 naming the field, and writes nothing', async () => {
    const subtypeId = await subtypeOf(menu.product('Espresso'));
    for (const calories of [-1, 10001, 2.5, '250']) {
      await refused(server.api.post(`${P}/CreateProducts`, { ...bm(), body: { subtypeId, name: `Bad ${String(calories)}`, price: 1, calories } }), 400, 'calories');
      await refused(server.api.put(`${P}/UpdateProduct`, { ...bm(), body: { id: menu.product('Espresso'), calories } }), 400, 'calories');
    }
    // The caller is refused before the body is looked at.
    await refused(server.api.put(`${P}/UpdateProduct`, { body: { id: menu.product('Espresso'), calories: -1 } }), 401);
  });
});

describe('reward programs: a body per kind, work after the write', () => {
  const admin = () => ({ token: token.brandmanager });
  it('edits a program only through its own kind (another kind is a 404) and keeps one active earning program per kind', async () => {
    const points = await ok(server.api.post(`${RP}/CreatePointsCollection`, { ...admin(), body: { branchId: 1, name: ' Beans ', pointsPerKd: 2 } }));
    expect(points).toMatchObject({ kind: 'points', name: 'Beans', isActive: true, pointsPerKd: 2, productIds: [] });
    const wrongKind = await server.api.post(`${RP}/EditPurchasesCollection`, { ...admin(), body: { id: points.id, name: 'Punches' } });
    expect(wrongKind.status).toBe(404);
    expect(wrongKind.body.error?.message).toMatch(/purchases collection/);
    const off = await ok(server.api.post(`${RP}/EditPointsCollection`, { ...admin(), body: { id: points.id, isActive: false } }));
    expect(off.isActive).toBe(false);
    const other = await ok(server.api.post(`${RP}/CreatePointsCollection`, { ...admin(), body: { branchId: 1, name: 'Other', pointsPerKd: 1 } }));
    const again = await server.api.post(`${RP}/EditPointsCollection`, { ...admin(), body: { id: points.id, isActive: true } });
    expect(again.status).toBe(400);
    expect(again.body.error?.message).toMatch(/already has an active points collection/);
    await ok(server.api.delete(`${RP}/DeleteDiscountProgram`, { ...admin(), query: { Id: other.id } }));
    await ok(server.api.delete(`${RP}/DeleteDiscountProgram`, { ...admin(), query: { Id: points.id } }));
  });

  it("a constant discount sets its group's percent, and deleting it sets it back to 0, in the same write", async () => {
    const [group] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Declared regulars' }).returning();
    const percent = async () => Number((await db().select().from(t.customerGroups).where(eq(t.customerGroups.id, group.id)))[0].discountPercent);
    const program = await ok(server.api.post(`${RP}/CreateConstantDiscount`, { ...admin(), body: { branchId: 1, name: 'Ten', customerGroupId: group.id, discountPercent: 10 } }));
    expect(await percent()).toBe(10);
    await ok(server.api.post(`${RP}/EditConstantDiscount`, { ...admin(), body: { id: program.id, discountPercent: 12.5 } }));
    expect(await percent()).toBe(12.5);
    await ok(server.api.delete(`${RP}/DeleteDiscountProgram`, { ...admin(), query: { Id: program.id } }));
    expect(await percent()).toBe(0);
    expect((await server.api.delete(`${RP}/DeleteDiscountProgram`, { ...admin(), query: { Id: program.id } })).status).toBe(404);
  });
});

describe('company switches', () => {
  it('flip one column each, with a history entry; ADMIN only', async () => {
    const C = `${APP}/Company`;
    const paused = await ok(server.api.post(`${C}/ChangeCompanyPauseStatus`, { token: token.admin, body: { companyId: 1, paused: true } }));
    expect(paused).toMatchObject({ id: 1, paused: true, accessible: true });
    const history = await ok(server.api.get(`${APP}/AuditLog/GetEntityHistory`, { token: token.admin, query: { resource: 'Company', id: 1 } }));
    expect(JSON.stringify(history)).toContain('"paused":true');
    expect((await ok(server.api.post(`${C}/ChangeCompanyPauseStatus`, { token: token.admin, body: { companyId: 1, paused: false } }))).paused).toBe(false);
    expect((await server.api.post(`${C}/ChangeCompanyAccessStatus`, { token: token.companyadmin, body: { companyId: 1, accessible: false } })).status).toBe(403);
    expect((await server.api.post(`${C}/ChangeCompanyAccessStatus`, { token: token.admin, body: { companyId: 99999, accessible: false } })).status).toBe(404);
    expect((await server.api.post(`${C}/ChangeCompanyAccessStatus`, { token: token.admin, body: { companyId: 1 } })).status).toBe(400);
  });
});
