import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { type Envelope } from '../support/server';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';

/** Customer groups: create, rename, add customers, private points program groups, the tree; bad input and scope write nothing. */
let tokens: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const API = '/api/services/app/CustomersGroups';

const server = useServer();
beforeAll(async () => {
  tokens = await callerTokens(server);
}, 120_000);

const counts = async () => ({
  groups: Number((await db().select({ n: sql<number>`count(*)::int` }).from(t.customerGroups))[0].n),
  members: Number((await db().select({ n: sql<number>`count(*)::int` }).from(t.customerGroupMembers))[0].n),
});
async function expectRefused(what: string, status: number, call: () => Promise<{ status: number; body: Envelope }>) {
  const before = await counts();
  const res = await call();
  expect(res.status, `${what}: ${JSON.stringify(res.body.error)}`).toBe(status);
  expect(res.body.error?.message, what).toBeTruthy();
  expect(await counts(), what).toEqual(before);
}

describe('CustomersGroups', () => {
  it('creates a group with customers, adds more once, renames it, lists members and shows the tree', async () => {
    const created = await server.api.post(`${API}/CreateNewCustomersGroup`, { token: tokens.brandmanager, body: { brandId: 7, name: 'Morning regulars', customerIds: [5] } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ brandId: 7, name: 'Morning regulars', memberCount: 1, isPrivatePointsProgram: false, discountPercent: 0 });
    const id = created.body.result.id;
    const again = await server.api.post(`${API}/AddCustomersToExistingGroup`, { token: tokens.companyadmin, body: { groupId: id, customerIds: [5, 5] } });
    expect(again.body.result.memberCount).toBe(1);
    const renamed = await server.api.put(`${API}/UpdateCustomersGroup`, { token: tokens.brandmanager, body: { id, name: 'Early birds' } });
    expect(renamed.status).toBe(200);
    const members = await server.api.get(`/api/services/app/Customer/GetCustomerDetailsByCustomersGroupId?GroupId=${id}`, { token: tokens.brandmanager });
    expect(members.body.result.data.map((c: { id: number }) => c.id)).toEqual([5]);
    const list = await server.api.get(`${API}/GetCustomersGroups?brandId=7`, { token: tokens.brandmanager });
    expect(list.body.result.data.map((g: { name: string }) => g.name)).toContain('Early birds');
    const priv = await server.api.post(`${API}/CreatePrivatePointsProgramGroup`, { token: tokens.admin, body: { brandId: 8, name: 'Dune VIP' } });
    expect(priv.body.result).toMatchObject({ isPrivatePointsProgram: true, memberCount: 0 });
    expect((await server.api.get(`${API}/GetPrivatePointsProgramGroupById?Id=${priv.body.result.id}`, { token: tokens.admin })).status).toBe(200);
    expect((await server.api.get(`${API}/GetPrivatePointsProgramGroupById?Id=${id}`, { token: tokens.admin })).status).toBe(404);
    expect((await server.api.put(`${API}/UpdatePrivatePointsProgramGroup`, { token: tokens.admin, body: { id: priv.body.result.id, name: 'Dune VIPs' } })).body.result.name).toBe('Dune VIPs');
    const tree = await server.api.get(`${API}/GetCustomersGroupsTreeView`, { token: tokens.brandmanager });
    expect(tree.body.result.map((b: { brandId: number }) => b.brandId)).toEqual([7]);
    expect(tree.body.result[0].groups).toContainEqual({ id, name: 'Early birds', isPrivatePointsProgram: false, memberCount: 1 });
  });

  it("FindCustomersForGroup (issue 23): the group's brand's customers by name or phone, saying who is in it already; scoped", async () => {
    const users = await db().insert(t.users).values([
      { userName: 'find7', fullName: 'Farah Seven', role: 'CUSTOMER', phoneNumber: '+96561110007', passwordHash: '!' },
      { userName: 'find8', fullName: 'Farah Eight', role: 'CUSTOMER', phoneNumber: '+96561110008', passwordHash: '!' },
      { userName: 'find7b', fullName: 'Fadi Seven', role: 'CUSTOMER', phoneNumber: '+96561110017', passwordHash: '!' },
    ]).returning({ id: t.users.id });
    const [seven, eight, sevenB] = users.map((u) => u.id);
    await db().insert(t.customerWallets).values([{ userId: seven, brandId: 7 }, { userId: eight, brandId: 8 }, { userId: sevenB, brandId: 7 }]);
    const group = (await server.api.post(`${API}/CreateNewCustomersGroup`, { token: tokens.brandmanager, body: { brandId: 7, name: 'Finders', customerIds: [sevenB] } })).body.result.id;
    const find = (who: Who, query: Record<string, unknown>) => server.api.get(`${API}/FindCustomersForGroup`, { token: tokens[who], query: { GroupId: group, ...query } });
    for (const who of ['admin', 'companyadmin', 'brandmanager'] as const) {
      const byName = await find(who, { Search: 'farah' });
      expect(byName.status, JSON.stringify(byName.body.error)).toBe(200);
      // Even ADMIN, who sees every customer, is offered only the brand's: the only ones AddCustomersToExistingGroup accepts.
      expect(byName.body.result).toEqual({ totalCount: 1, data: [{ id: seven, fullName: 'Farah Seven', phoneNumber: '+96561110007', inGroup: false }] });
    }
    const byPhone = await find('brandmanager', { Search: '6111 00' });
    expect(byPhone.body.result.data.map((c: { id: number; inGroup: boolean }) => [c.id, c.inGroup])).toEqual([[sevenB, true], [seven, false]]);
    expect((await find('brandmanager', { Search: '1110017' })).body.result.data).toEqual([{ id: sevenB, fullName: 'Fadi Seven', phoneNumber: '+96561110017', inGroup: true }]);

    const [{ id: brand8Group }] = await db().insert(t.customerGroups).values({ brandId: 8, name: 'Elsewhere' }).returning();
    expect((await find('brandmanager', { GroupId: brand8Group })).status).toBe(404);
    expect((await find('companyadmin', { GroupId: brand8Group })).status).toBe(404);
    // 401/403 before any complaint about the query.
    expect((await find('anonymous', { GroupId: 'x' })).status).toBe(401);
    expect((await find('branchuser', { GroupId: 'x' })).status).toBe(403);
    expect((await find('customer', { GroupId: 'x' })).status).toBe(403);
    expect((await find('brandmanager', { GroupId: 'x' })).status).toBe(400);
    expect((await find('brandmanager', { Search: 'x'.repeat(101) })).status).toBe(400);
  });

  it('refuses bad input and callers out of scope, writing nothing', async () => {
    const [{ id: brand8Group }] = await db().insert(t.customerGroups).values({ brandId: 8, name: 'Other' }).returning();
    const post = (name: string, who: Who, body: unknown) => () => server.api.post(`${API}/${name}`, { token: tokens[who], body });
    await expectRefused('blank name', 400, post('CreateCustomersGroup', 'admin', { brandId: 7, name: ' ' }));
    await expectRefused('no customers', 400, post('CreateNewCustomersGroup', 'admin', { brandId: 7, name: 'X', customerIds: [] }));
    await expectRefused('a staff user is no customer', 400, post('CreateNewCustomersGroup', 'admin', { brandId: 7, name: 'X', customerIds: [5, 3] }));
    await expectRefused('brand of another company', 400, post('CreateCustomersGroup', 'companyadmin', { brandId: 8, name: 'X' }));
    await expectRefused('brand manager, other brand', 400, post('CreateNewCustomersGroup', 'brandmanager', { brandId: 8, name: 'X', customerIds: [5] }));
    await expectRefused('adding to a group of another brand', 404, post('AddCustomersToExistingGroup', 'brandmanager', { groupId: brand8Group, customerIds: [5] }));
    await expectRefused('branch user', 403, post('CreateCustomersGroup', 'branchuser', { brandId: 7, name: 'X' }));
    await expectRefused('customer', 403, post('CreateCustomersGroup', 'customer', { brandId: 7, name: 'X' }));
    await expectRefused('anonymous', 401, post('CreateCustomersGroup', 'anonymous', { brandId: 7, name: 'X' }));
    expect((await server.api.get(`${API}/GetCustomersGroupById?Id=${brand8Group}`, { token: tokens.brandmanager })).status).toBe(404);
  });
});
