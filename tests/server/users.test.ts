import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import { rowsOf } from '../../server/db/client';
import { branches, brands } from '../../server/db/schema';
import { ASSIGNABLE_ROLES, roleId } from '../../domain/permissions';

/**
 * Staff users (AdminUserManagement, Brand managers, Branch users) on one user service: who may
 * call what, escalation attempts, bad input, deleted users and role changes. Seed: company 1 owns
 * brand 7 (branch 1), company 2 owns brand 8 (branches 2, 3); this file adds brand 9 (branch 4) to company 1.
 */
const UM = '/api/services/app/AdminUserManagement';
const BRAND = '/api/services/app/Brand';
const BRANCH = '/api/services/app/Branch';
const HISTORY = '/api/services/app/AuditLog/GetEntityHistory';
const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'anonymous';
const WHO: Who[] = [...USERS, 'anonymous'];
const token = {} as Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });
let brand9: number;
let branch4: number;

const server = useServer();
beforeAll(async () => {
  for (const u of USERS) token[u] = await server.api.login(u);
  token.anonymous = undefined;
  [{ id: brand9 }] = await server.database.db.insert(brands).values({ companyId: 1, name: 'Mango Juice', currencyId: 1 }).returning();
  [{ id: branch4 }] = await server.database.db.insert(branches).values({ brandId: brand9, name: 'Mango Juice Hawally' }).returning();
}, 120_000);

/** Users and history rows: a refused call changes neither. */
const written = async () => ({ users: await countRows(server, 'users'), managers: await countRows(server, 'brand_managers'), audit: await countRows(server, 'audit_log') });
const userRow = async (id: number) =>
  rowsOf<Record<string, unknown>>(await server.database.db.execute(sql`select * from users where id = ${id}`))[0];
let seq = 0;
const person = (extra: Record<string, unknown> = {}) => {
  seq += 1;
  return { userName: `staff${seq}`, fullName: `Staff Person ${seq}`, emailAddress: `staff${seq}@brewops.test`, password: 'secret1', ...extra };
};
const namesOf = (res: { body: { result: { data: { userName: string }[] } } }) => res.body.result.data.map((u) => u.userName).sort();

/** Expects a refusal with `status` and proves nothing was written. */
async function refused(status: number, call: () => Promise<{ status: number; body: { error: { message: string } | null } }>) {
  const before = await written();
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(await written()).toEqual(before);
  return res;
}

describe('who may call what (role × call)', () => {
  const reads: [string, Record<string, unknown>, Record<Who, number>][] = [
    [`${UM}/GetDashboardUsersList`, {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetCurrentAllowedRoles`, {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetAllCompaniesUM`, {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetBrandsForCurrentUserUM`, {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetBranchesForCurrentUserUM`, {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    // the branch user (id 4) is managed by the three main roles; the admin (id 1) only by the admin
    [`${UM}/GetUserManagementUserById`, { UserId: 4 }, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetUserManagementUserById`, { UserId: 1 }, { admin: 200, companyadmin: 404, brandmanager: 404, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetUserManagementUserById`, { UserId: 5 }, { admin: 404, companyadmin: 404, brandmanager: 404, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${UM}/GetUserManagementUserById`, { UserId: 18 }, { admin: 404, companyadmin: 404, brandmanager: 404, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${BRAND}/GetBrandManagersByCompanyId`, { companyId: 1 }, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${BRAND}/GetBrandManagersByBrandId`, { brandId: 7 }, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    [`${BRANCH}/GetBranchUsersByBranchId`, { branchId: 1 }, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
  ];
  it.each(reads)('%s %j', async (path, query, expected) => {
    for (const who of WHO) {
      const res = await server.api.get(path, { ...as(who), query });
      expect(res.status, `${who}: ${JSON.stringify(res.body.error)}`).toBe(expected[who]);
    }
  });

  it('lists only the users each role manages: never a customer, the guest, or a role it may not give', async () => {
    const list = (who: Who, query: Record<string, unknown> = {}) => server.api.get(`${UM}/GetDashboardUsersList`, { ...as(who), query: { MaxResultCount: 100, ...query } });
    const admin = namesOf(await list('admin'));
    expect(admin).toEqual(expect.arrayContaining(['admin', 'brandmanager', 'branchuser', 'companyadmin']));
    expect(admin).not.toContain('customer');
    expect(admin).not.toContain('guest');
    expect(namesOf(await list('companyadmin'))).toEqual(expect.arrayContaining(['brandmanager', 'branchuser', 'companyadmin']));
    expect(namesOf(await list('companyadmin'))).not.toContain('admin');
    expect(namesOf(await list('brandmanager'))).toEqual(expect.arrayContaining(['branchuser']));
    expect(namesOf(await list('brandmanager'))).not.toContain('brandmanager');
    // the console's brand switch filters within the scope, never widens it
    expect((await list('brandmanager', { brandId: 8 })).body.result.totalCount).toBe(0);
    const one = (await list('admin', { userName: 'branchuser' })).body.result.data[0];
    expect(one).toMatchObject({ userName: 'branchuser', role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1 });
    expect(JSON.stringify(one)).not.toMatch(/password_?hash|"password"/i);
  });

  it('GetCurrentAllowedRoles answers the one table of domain/permissions.ts', async () => {
    for (const who of ['admin', 'companyadmin', 'brandmanager'] as const) {
      const res = await server.api.get(`${UM}/GetCurrentAllowedRoles`, as(who));
      const role = who === 'admin' ? 'ADMIN' : who === 'companyadmin' ? 'COMPANY_ADMIN' : 'BRAND_MANAGER';
      expect(res.body.result.map((r: { name: string }) => r.name)).toEqual(ASSIGNABLE_ROLES[role]);
    }
    const ca = await server.api.get(`${UM}/GetCurrentAllowedRoles`, as('companyadmin'));
    expect(ca.body.result.map((r: { name: string }) => r.name)).not.toContain('ADMIN');
    expect(ca.body.result.find((r: { name: string }) => r.name === 'BRANCH_USER')).toEqual({ id: roleId('BRANCH_USER'), name: 'BRANCH_USER', place: 'branch' });
  });

  it('the place lists follow the scope', async () => {
    const ids = async (who: Who, path: string) => (await server.api.get(`${UM}/${path}`, as(who))).body.result.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
    expect(await ids('admin', 'GetAllCompaniesUM')).toEqual([1, 2]);
    expect(await ids('companyadmin', 'GetAllCompaniesUM')).toEqual([1]);
    expect(await ids('companyadmin', 'GetBrandsForCurrentUserUM')).toEqual([7, brand9]);
    expect(await ids('brandmanager', 'GetBrandsForCurrentUserUM')).toEqual([7]);
    expect(await ids('brandmanager', 'GetBranchesForCurrentUserUM')).toEqual([1]);
    expect(await ids('companyadmin', 'GetBranchesForCurrentUserUM')).toEqual([1, branch4]);
  });

  it('writes: only the main roles, and each only within its place', async () => {
    const body = (who: Who) => person({ userName: `matrix_${who}`, branchId: 1 });
    const expected: Record<Who, number> = { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 };
    for (const who of WHO) {
      const call = () => server.api.post(`${UM}/CreateBranchUser`, { ...as(who), body: body(who) });
      if (expected[who] === 200) expect((await call()).status).toBe(200);
      else await refused(expected[who], call);
    }
    // a 401/403 comes before any complaint about the body
    await refused(403, () => server.api.post(`${UM}/CreateBranchUser`, { ...as('branchuser'), body: { nonsense: true } }));
    await refused(401, () => server.api.post(`${UM}/CreateBranchUser`, { body: { nonsense: true } }));
    for (const who of ['branchuser', 'customer', 'anonymous'] as const) {
      await refused(who === 'anonymous' ? 401 : 403, () => server.api.delete(`${UM}/DeleteDashboardUser`, { ...as(who), query: { UserId: 4 } }));
      await refused(who === 'anonymous' ? 401 : 403, () => server.api.post(`${UM}/ModifyUserRole`, { ...as(who), query: { userId: 4, roleId: 1 } }));
      await refused(who === 'anonymous' ? 401 : 403, () => server.api.put(`${BRANCH}/UpdateBranchUser`, { ...as(who), body: { id: 4, fullName: 'X' } }));
      await refused(who === 'anonymous' ? 401 : 403, () => server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as(who), query: { BrandId: 7, BrandManagerId: 3 } }));
    }
  });
});

describe('creating users', () => {
  it('a company admin creates a branch user who logs in with the password that was set; the write is in the history', async () => {
    const created = await server.api.post(`${BRANCH}/CreateBranchUserForBranch`, {
      ...as('companyadmin'), body: person({ userName: 'noura2', branchId: 1, phoneNumber: '+965 5000 1234' }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ userName: 'noura2', role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1, phoneNumber: '+96550001234' });
    expect(created.body.result).not.toHaveProperty('password');
    const id = created.body.result.id as number;
    expect(String((await userRow(id)).password_hash)).toMatch(/^scrypt\$/);

    const login = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'noura2', password: 'secret1' } });
    expect(login.status).toBe(200);
    const me = await server.api.get('/api/services/app/User/Get', { token: login.body.result.accessToken, query: { Id: id } });
    expect(me.body.result.roleNames).toEqual(['BRANCH_USER']);

    const history = await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'AdminUserManagement', id } });
    expect(history.status).toBe(200);
    expect(history.body.result.data).toHaveLength(1);
    expect(history.body.result.data[0]).toMatchObject({ action: 'create', userName: 'companyadmin', before: null, after: { userName: 'noura2', role: 'BRANCH_USER' } });
    expect(JSON.stringify(history.body.result)).not.toMatch(/scrypt|secret1/);
    expect((await server.api.get(HISTORY, { ...as('brandmanager'), query: { resource: 'AdminUserManagement', id: 1 } })).status).toBe(404);
  });

  it('each kind of user gets the place its role needs', async () => {
    const company = await server.api.post(`${UM}/CreateCompanyUser`, { ...as('admin'), body: person({ companyId: 2, role: 'COMPANY_REVIEWER' }) });
    expect(company.body.result).toMatchObject({ role: 'COMPANY_REVIEWER', companyId: 2, brandId: null, branchId: null });
    const manager = await server.api.post(`${UM}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: person({ brandId: brand9 }) });
    expect(manager.body.result).toMatchObject({ role: 'BRAND_MANAGER', companyId: 1, brandId: brand9, branchId: null, brandIds: [brand9] });
    const admin = await server.api.post(`${UM}/CreateUser`, { ...as('admin'), body: person({ role: 'ADMIN', companyId: 1 }) });
    expect(admin.body.result).toMatchObject({ role: 'ADMIN', companyId: null, brandId: null, branchId: null });
    const reviewer = await server.api.post(`${UM}/CreateUser`, { ...as('brandmanager'), body: person({ role: 'BRANCH_REVIEWER', branchId: 1, brandId: 7 }) });
    expect(reviewer.body.result).toMatchObject({ role: 'BRANCH_REVIEWER', companyId: 1, brandId: 7, branchId: 1 });
  });

  it('bad input is a 400 naming the field, and nothing is written', async () => {
    const create = (body: Record<string, unknown>) => () => server.api.post(`${UM}/CreateUser`, { ...as('admin'), body });
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, password: '12345' })));
    await refused(400, create({ ...person({ role: 'BRANCH_USER', branchId: 1 }), userName: undefined }));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, userName: 'has space' })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, emailAddress: 'not-an-email' })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, phoneNumber: 'abc' })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, fullName: '   ' })));
    await refused(400, create(person({ role: 'OWNER', branchId: 1 })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 99999 })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 'one' })));
    await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, password: 'x'.repeat(129) })));
    const noPlace = await refused(400, create(person({ role: 'BRANCH_USER' })));
    expect(noPlace.body.error!.message).toMatch(/branchId is required/);
    const mismatch = await refused(400, create(person({ role: 'BRANCH_USER', branchId: 2, brandId: 7 })));
    expect(mismatch.body.error!.message).toMatch(/Branch 2 is not in brand 7/);
    const taken = await refused(400, create(person({ role: 'BRANCH_USER', branchId: 1, userName: 'ADMIN', emailAddress: 'customer@brewops.test' })));
    expect(taken.body.error).toMatchObject({ validationErrors: [
      { message: 'The user name ADMIN is already taken.', members: ['userName'] },
      { message: 'The e-mail address customer@brewops.test is already taken.', members: ['emailAddress'] },
    ] });
    await refused(400, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('admin'), query: { userId: 4, roleId: 99 } }));
    await refused(400, () => server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('admin'), body: { brandId: 7, userName: 'half' } }));
    await refused(400, () => server.api.put(`${UM}/UpdateUser`, { ...as('admin'), body: { id: 4, password: 'short' } }));
  });
});

describe('escalation attempts are refused with nothing written', () => {
  it('a company admin cannot create an ADMIN, or a user of company 2', async () => {
    await refused(403, () => server.api.post(`${UM}/CreateUser`, { ...as('companyadmin'), body: person({ role: 'ADMIN' }) }));
    await refused(400, () => server.api.post(`${UM}/CreateCompanyUser`, { ...as('companyadmin'), body: person({ companyId: 2 }) }));
    await refused(400, () => server.api.post(`${UM}/CreateBranchUser`, { ...as('companyadmin'), body: person({ branchId: 2 }) }));
    await refused(400, () => server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: person({ brandId: 8 }) }));
    await refused(403, () => server.api.post(`${UM}/CreateUser`, { ...as('companyadmin'), body: person({ role: 'CUSTOMER' }) }));
  });

  it('a company admin cannot make anyone an ADMIN, or move a user out of their company', async () => {
    await refused(403, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('companyadmin'), query: { userId: 4, roleId: roleId('ADMIN') } }));
    await refused(403, () => server.api.put(`${UM}/UpdateUser`, { ...as('companyadmin'), body: { id: 4, role: 'ADMIN' } }));
    await refused(400, () => server.api.put(`${BRANCH}/UpdateBranchUser`, { ...as('companyadmin'), body: { id: 4, branchId: 2 } }));
    await refused(400, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('companyadmin'), query: { userId: 4, roleId: roleId('COMPANY_ADMIN'), companyId: 2 } }));
    // their own role: refused even within what they may give
    await refused(403, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('companyadmin'), query: { userId: 2, roleId: roleId('COMPANY_REVIEWER'), companyId: 1 } }));
    await refused(403, () => server.api.delete(`${UM}/DeleteDashboardUser`, { ...as('companyadmin'), query: { UserId: 2 } }));
  });

  it('a company admin cannot reach the admin, customers or the guest', async () => {
    for (const id of [1, 5, 18]) {
      await refused(404, () => server.api.put(`${UM}/UpdateUser`, { ...as('companyadmin'), body: { id, fullName: 'Taken over', password: 'hijack1' } }));
      await refused(404, () => server.api.delete(`${UM}/DeleteDashboardUser`, { ...as('companyadmin'), query: { UserId: id } }));
      await refused(404, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('companyadmin'), query: { userId: id, roleId: roleId('BRANCH_USER'), branchId: 1 } }));
    }
    // not even the admin reaches a customer or the guest here
    for (const id of [5, 18]) {
      await refused(404, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('admin'), query: { userId: id, roleId: roleId('ADMIN') } }));
      await refused(404, () => server.api.delete(`${UM}/DeleteDashboardUser`, { ...as('admin'), query: { UserId: id } }));
    }
  });

  it('a brand manager cannot create a user for brand 8, a brand manager, or reach their own peers', async () => {
    await refused(400, () => server.api.post(`${UM}/CreateUser`, { ...as('brandmanager'), body: person({ role: 'BRAND_REVIEWER', brandId: 8 }) }));
    await refused(400, () => server.api.post(`${BRANCH}/CreateBranchUserForBranch`, { ...as('brandmanager'), body: person({ branchId: 2 }) }));
    await refused(403, () => server.api.post(`${UM}/CreateBrandManagerForBrand`, { ...as('brandmanager'), body: person({ brandId: 7 }) }));
    await refused(403, () => server.api.post(`${UM}/CreateCompanyUser`, { ...as('brandmanager'), body: person({ companyId: 1 }) }));
    await refused(403, () => server.api.post(`${UM}/ModifyUserRole`, { ...as('brandmanager'), query: { userId: 4, roleId: roleId('BRAND_MANAGER'), brandId: 7 } }));
    await refused(404, () => server.api.put(`${UM}/UpdateUser`, { ...as('brandmanager'), body: { id: 2, fullName: 'Boss' } }));
    await refused(404, () => server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as('brandmanager'), query: { BrandId: 7, BrandManagerId: 3 } }));
  });

  it('a kind-specific call reaches only users of its kind, and a branch only its own users', async () => {
    await refused(404, () => server.api.put(`${BRANCH}/UpdateBranchUser`, { ...as('admin'), body: { id: 3, fullName: 'Not a branch user' } }));
    await refused(404, () => server.api.put(`${UM}/UpdateCompanyUser`, { ...as('admin'), body: { id: 4, fullName: 'Not a company user' } }));
    await refused(404, () => server.api.delete(`${BRANCH}/DeleteBranchUser`, { ...as('admin'), query: { BranchId: 2, BranchUserId: 4 } }));
  });
});

describe('deleting and changing users', () => {
  it("a deleted user's token stops working at once (401) and they cannot log in; the row is kept, archived", async () => {
    const created = await server.api.post(`${UM}/CreateBranchUser`, { ...as('brandmanager'), body: person({ userName: 'leaving', branchId: 1 }) });
    const id = created.body.result.id as number;
    const own = await server.api.login('leaving', 'secret1');
    expect((await server.api.get('/api/services/app/User/Get', { token: own, query: { Id: id } })).status).toBe(200);

    const deleted = await server.api.delete(`${BRANCH}/DeleteBranchUser`, { ...as('brandmanager'), query: { BranchId: 1, BranchUserId: id } });
    expect(deleted.status).toBe(200);
    expect((await server.api.get('/api/services/app/User/Get', { token: own, query: { Id: id } })).status).toBe(401);
    expect((await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'leaving', password: 'secret1' } })).status).toBe(400);
    expect(await userRow(id)).toMatchObject({ user_name: 'leaving', is_active: false });
    expect((await server.api.get(`${UM}/GetUserManagementUserById`, { ...as('brandmanager'), query: { UserId: id } })).status).toBe(404);
    // deleting twice finds nothing; the name stays taken
    await refused(404, () => server.api.delete(`${UM}/DeleteDashboardUser`, { ...as('admin'), query: { UserId: id } }));
    await refused(400, () => server.api.post(`${UM}/CreateBranchUser`, { ...as('admin'), body: person({ userName: 'leaving', branchId: 1 }) }));
    const [entry] = rowsOf<{ action: string; before: { userName: string }; after: unknown }>(
      await server.database.db.execute(sql`select * from audit_log where resource = 'AdminUserManagement' and row_id = ${id} order by id desc limit 1`));
    expect(entry).toMatchObject({ action: 'delete', before: { userName: 'leaving' }, after: null });
  });

  it("a role change takes effect at the user's next request, with the same token", async () => {
    const created = await server.api.post(`${UM}/CreateBranchUser`, { ...as('companyadmin'), body: person({ userName: 'promoted', branchId: 1 }) });
    const id = created.body.result.id as number;
    const own = await server.api.login('promoted', 'secret1');
    expect((await server.api.get(`${UM}/GetCurrentAllowedRoles`, { token: own })).status).toBe(403);

    const changed = await server.api.post(`${UM}/ModifyUserRole`, { ...as('companyadmin'), query: { userId: id, roleId: roleId('BRAND_MANAGER'), brandId: 7 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.result).toMatchObject({ role: 'BRAND_MANAGER', companyId: 1, brandId: 7, branchId: null, brandIds: [7] });
    const now = await server.api.get(`${UM}/GetCurrentAllowedRoles`, { token: own });
    expect(now.status).toBe(200);
    expect(now.body.result.map((r: { name: string }) => r.name)).toEqual(['BRAND_REVIEWER', 'BRANCH_USER', 'BRANCH_REVIEWER']);

    // back to a branch user: no longer a manager of any brand
    const back = await server.api.put(`${UM}/UpdateUser`, { ...as('companyadmin'), body: { id, role: 'BRANCH_USER', branchId: branch4 } });
    expect(back.body.result).toMatchObject({ role: 'BRANCH_USER', brandId: brand9, branchId: branch4 });
    expect(await countRowsWhere(`brand_managers where user_id = ${id}`)).toBe(0);
    expect((await server.api.get(`${UM}/GetCurrentAllowedRoles`, { token: own })).status).toBe(403);
  });

  it('an update changes only the fields sent; a new password works and shows in the history only as a time', async () => {
    const created = await server.api.post(`${UM}/CreateBranchUser`, { ...as('companyadmin'), body: person({ userName: 'renamed', branchId: 1 }) });
    const id = created.body.result.id as number;
    const res = await server.api.put(`${UM}/UpdateBranchUser`, { ...as('companyadmin'), body: { id, fullName: 'Renamed Person', password: 'another1' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ userName: 'renamed', fullName: 'Renamed Person', branchId: 1, emailAddress: created.body.result.emailAddress });
    expect(res.body.result.passwordChangedAt).not.toBe(created.body.result.passwordChangedAt);
    await server.api.login('renamed', 'another1');
    const history = await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'AdminUserManagement', id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['update', 'create']);
    expect(JSON.stringify(history.body.result)).not.toMatch(/another1|scrypt/);
    // the same values again leave no entry
    await server.api.put(`${UM}/UpdateBranchUser`, { ...as('companyadmin'), body: { id, fullName: 'Renamed Person' } });
    expect((await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'AdminUserManagement', id } })).body.result.totalCount).toBe(2);
  });
});

const countRowsWhere = async (from: string) =>
  rowsOf<{ n: number }>(await server.database.db.execute(sql.raw(`select count(*)::int as n from ${from}`)))[0].n;

describe('a brand manager of several brands', () => {
  it('is added to a brand of their company; their scope is all their brands from the next request', async () => {
    const bm = token.brandmanager!;
    await refused(400, () => server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('admin'), body: { userId: 3, brandId: 8 } }));
    await refused(400, () => server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: { userId: 3, brandId: 8 } }));
    await refused(404, () => server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: { userId: 4, brandId: brand9 } }));

    const added = await server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: { userId: 3, brandId: brand9 } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.result).toMatchObject({ id: 3, brandId: 7, brandIds: [7, brand9] });
    const brandsNow = await server.api.get(`${UM}/GetBrandsForCurrentUserUM`, { token: bm });
    expect(brandsNow.body.result.map((b: { id: number }) => b.id).sort()).toEqual([7, brand9].sort());

    // the scope reaches the new brand's branches, and still not brand 8
    const juice = await server.api.post(`${BRANCH}/CreateBranchUserForBranch`, { token: bm, body: person({ userName: 'juicer', branchId: branch4 }) });
    expect(juice.status).toBe(200);
    await refused(400, () => server.api.post(`${BRANCH}/CreateBranchUserForBranch`, { token: bm, body: person({ branchId: 2 }) }));
    const list = (query: Record<string, unknown>) => server.api.get(`${UM}/GetDashboardUsersList`, { token: bm, query: { MaxResultCount: 100, ...query } });
    expect(namesOf(await list({ brandId: brand9 }))).toEqual(['juicer', 'promoted']);
    expect(namesOf(await list({}))).toEqual(expect.arrayContaining(['juicer', 'branchuser']));

    const byBrand = await server.api.get(`${BRAND}/GetBrandManagersByBrandId`, { ...as('companyadmin'), query: { brandId: brand9 } });
    expect(byBrand.body.result.data.map((u: { id: number }) => u.id)).toContain(3);
    const byCompany = await server.api.get(`${BRAND}/GetBrandManagersByCompanyId`, { ...as('companyadmin'), query: { companyId: 1 } });
    expect(byCompany.body.result.data.find((u: { id: number }) => u.id === 3)).toMatchObject({ brandIds: [7, brand9] });
    expect((await server.api.get(`${BRAND}/GetBrandManagersByBrandId`, { ...as('brandmanager'), query: { brandId: 7 } })).body.result.totalCount).toBe(0);

    // removed from the brand: out of its scope at once
    const removed = await server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as('companyadmin'), query: { BrandId: brand9, BrandManagerId: 3 } });
    expect(removed.status).toBe(200);
    await refused(400, () => server.api.post(`${BRANCH}/CreateBranchUserForBranch`, { token: bm, body: person({ branchId: branch4 }) }));
    expect((await list({ brandId: brand9 })).body.result.totalCount).toBe(0);
    expect((await server.api.get(`${UM}/GetUserManagementUserById`, { ...as('admin'), query: { UserId: 3 } })).body.result).toMatchObject({ brandId: 7, brandIds: [7] });
  });

  it("removing a manager from their default brand moves the default; from their last brand deletes them", async () => {
    const created = await server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: person({ userName: 'twobrands', brandId: 7 }) });
    const id = created.body.result.id as number;
    await server.api.post(`${BRAND}/CreateBrandManagerForBrand`, { ...as('companyadmin'), body: { userId: id, brandId: brand9 } });
    const own = await server.api.login('twobrands', 'secret1');

    await server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as('companyadmin'), query: { BrandId: 7, BrandManagerId: id } });
    expect((await server.api.get(`${UM}/GetUserManagementUserById`, { ...as('companyadmin'), query: { UserId: id } })).body.result)
      .toMatchObject({ brandId: brand9, brandIds: [brand9] });
    expect((await server.api.get(`${UM}/GetCurrentAllowedRoles`, { token: own })).status).toBe(200);

    await server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as('companyadmin'), query: { BrandId: brand9, BrandManagerId: id } });
    expect((await server.api.get(`${UM}/GetCurrentAllowedRoles`, { token: own })).status).toBe(401);
    expect(await userRow(id)).toMatchObject({ is_active: false });
    await refused(404, () => server.api.delete(`${BRAND}/DeleteBrandManager`, { ...as('companyadmin'), query: { BrandId: brand9, BrandManagerId: id } }));
  });
});
