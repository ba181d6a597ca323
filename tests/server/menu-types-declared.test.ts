import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * Product types and sub-types as declared resources (server/services/productTypesAndSubtypes/resource.ts):
 * what the hand-written calls did and menu.test.ts / menu-console.test.ts do not already prove —
 * a sub-type moved to another type goes last there, is refused (404) towards another brand's or an
 * archived type, an archived row is a 404 to change and its history stays readable, and the audit
 * entries keep the brand as their place.
 */
const PT = '/api/services/app/ProductTypesAndSubtypes';
const HISTORY = '/api/services/app/AuditLog/GetEntityHistory';
const server = useServer();
let bm: { token: string };
let admin: { token: string };
beforeAll(async () => {
  bm = { token: await server.api.login('brandmanager') };
  admin = { token: await server.api.login('admin') };
});

const ok = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const TABLES = ['product_types', 'product_subtypes', 'audit_log'];
async function refused(res: Promise<{ status: number; body: any }>, status: number, message?: string | RegExp) {
  const before = await Promise.all(TABLES.map((tb) => countRows(server, tb)));
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (message) expect(r.body.error.message).toMatch(message);
  expect(await Promise.all(TABLES.map((tb) => countRows(server, tb)))).toEqual(before);
}
const type = (brandId: number, name: string, who = bm) => ok(server.api.post(`${PT}/CreateProductType`, { ...who, body: { brandId, name } }));
const sub = (typeId: number, name: string) => ok(server.api.post(`${PT}/CreateProductSubType`, { ...bm, body: { typeId, name } }));
const lastAudit = async (resource: string, rowId: number) => (await server.database.db.select().from(t.auditLog)
  .where(and(eq(t.auditLog.resource, resource), eq(t.auditLog.rowId, rowId))).orderBy(desc(t.auditLog.id)).limit(1))[0];

describe('product types and sub-types, declared', () => {
  it('a sub-type moved to another type of the brand goes last there unless placed; the move is one audit entry kept under the brand', async () => {
    const from = await type(7, 'Move from');
    const to = await type(7, 'Move to');
    const [a, b] = [await sub(to.id, 'Stays A'), await sub(to.id, 'Stays B')];
    const moving = await sub(from.id, 'Moving');
    const moved = await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm, body: { id: moving.id, typeId: to.id } }));
    expect(moved).toMatchObject({ id: moving.id, typeId: to.id, sortOrder: 2, name: 'Moving', nameAr: null });
    const entry = await lastAudit('ProductSubType', moving.id);
    expect(entry).toMatchObject({ action: 'update', scopeId: 7, before: { typeId: from.id, sortOrder: 0 }, after: { typeId: to.id, sortOrder: 2 } });
    // placed: first among its new siblings, the others follow
    const back = await sub(from.id, 'Placed');
    expect(await ok(server.api.put(`${PT}/UpdateProductSubType`, { ...bm, body: { id: back.id, typeId: to.id, sortOrder: 0 } }))).toMatchObject({ sortOrder: 0 });
    const order = await server.database.db.select({ id: t.productSubtypes.id, sortOrder: t.productSubtypes.sortOrder }).from(t.productSubtypes).where(eq(t.productSubtypes.typeId, to.id));
    expect(Object.fromEntries(order.map((r) => [r.id, r.sortOrder]))).toEqual({ [back.id]: 0, [a.id]: 1, [b.id]: 2, [moving.id]: 3 });
    // a duplicate name in the new type is the 400 of a rename
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm, body: { id: (await sub(from.id, 'stays a')).id, typeId: to.id } }), 400, /already called "stays a"/);
  });

  it("a sub-type is refused (404, nothing written) towards another brand's type or an archived type; an archived row is a 404 and its history stays", async () => {
    const mine = await type(7, 'Mine');
    const theirs = await type(8, 'Theirs', admin);
    const s = await sub(mine.id, 'Keeps its type');
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm, body: { id: s.id, typeId: theirs.id } }), 404, /Product type/);
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...admin, body: { id: s.id, typeId: theirs.id } }), 404, /Product type/);
    const gone = await type(7, 'Archived soon');
    expect(await ok(server.api.delete(`${PT}/DeleteProductType`, { ...bm, query: { productTypeId: gone.id } }))).toBe(true);
    await refused(server.api.post(`${PT}/CreateProductSubType`, { ...bm, body: { typeId: gone.id, name: 'Under an archived type' } }), 404, /Product type/);
    await refused(server.api.put(`${PT}/UpdateProductSubType`, { ...bm, body: { id: s.id, typeId: gone.id } }), 404, /Product type/);
    await refused(server.api.put(`${PT}/UpdateProductType`, { ...bm, body: { id: gone.id, name: 'Back' } }), 404, /Product type/);
    await refused(server.api.delete(`${PT}/DeleteProductType`, { ...bm, query: { productTypeId: gone.id } }), 404, /Product type/);
    const [row] = await server.database.db.select().from(t.productTypes).where(eq(t.productTypes.id, gone.id));
    expect(row.archivedAt).not.toBeNull();
    const h = await ok(server.api.get(HISTORY, { ...bm, query: { resource: 'ProductType', id: gone.id } }));
    expect(h.data.map((e: { action: string }) => e.action)).toEqual(['delete', 'create']);
    expect(h.data[0]).toMatchObject({ before: { id: gone.id, brandId: 7, name: 'Archived soon' }, after: null });
    expect(await lastAudit('ProductType', gone.id)).toMatchObject({ scopeId: 7 });
  });
});
