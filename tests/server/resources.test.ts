import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import { rowsOf } from '../../server/db/client';
import { taxes } from '../../server/db/schema';
import { taxResource } from '../../server/services/tax/resource';

/** The admin resource shape (server/resources/) through its first declarations: Tax and AppUpdates. */
const TAX = '/api/services/app/Tax';
const UPDATES = '/api/services/app/AppUpdates';
const HISTORY = '/api/services/app/AuditLog/GetEntityHistory';
const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'anonymous';
const token = {} as Record<Who, string | undefined>;

/** Company 1 owns brand 7, company 2 owns brand 8 (seed). */
let tax7: number;
let tax8: number;

const server = useServer();
beforeAll(async () => {
  for (const u of USERS) token[u] = await server.api.login(u);
  token.anonymous = undefined;
  const rows = await server.database.db.insert(taxes).values([
    { brandId: 7, name: 'Service charge', percent: '5' },
    { brandId: 8, name: 'Dune levy', percent: '2.5' },
  ]).returning();
  [tax7, tax8] = rows.map((r) => r.id);
});

const as = (who: Who) => ({ token: token[who] });
const taxRow = async (id: number) =>
  rowsOf<{ name: string; percent: string; is_active: boolean }>(await server.database.db.execute(sql`select * from taxes where id = ${id}`))[0];
const auditCount = () => countRows(server, 'audit_log');

describe('Tax (SPEC.md 7: Create, Update, GetAllByBrandId, Delete?TaxId)', () => {
  it('creates, lists, changes and deletes a tax, each write with its audit entry', async () => {
    const created = await server.api.post(`${TAX}/Create`, { ...as('companyadmin'), body: { brandId: 7, name: 'City fee', percent: 1.25 } });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ brandId: 7, name: 'City fee', percent: 1.25, isActive: true });
    const id = created.body.result.id as number;

    const list = await server.api.get(`${TAX}/GetAllByBrandId`, { ...as('companyadmin'), query: { brandId: 7, Sorting: 'percent desc' } });
    expect(list.status).toBe(200);
    expect(list.body.result.data.map((t: { name: string }) => t.name)).toEqual(['Service charge', 'City fee', 'VAT']);
    expect(list.body.result.totalCount).toBe(3);

    const updated = await server.api.put(`${TAX}/Update`, { ...as('companyadmin'), body: { id, percent: 2, isActive: false } });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({ id, brandId: 7, name: 'City fee', percent: 2, isActive: false });

    const deleted = await server.api.delete(`${TAX}/Delete`, { ...as('companyadmin'), query: { TaxId: id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.result).toBe(true);
    expect(await taxRow(id)).toBeUndefined();

    const history = await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'Tax', id } });
    expect(history.status).toBe(200);
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['delete', 'update', 'create']);
    const [del, upd, cre] = history.body.result.data;
    expect(cre).toMatchObject({ userName: 'companyadmin', rowId: id, before: null, after: { name: 'City fee', percent: 1.25, isActive: true } });
    expect(upd).toMatchObject({ before: { percent: 1.25, isActive: true }, after: { percent: 2, isActive: false } });
    expect(del).toMatchObject({ before: { name: 'City fee', percent: 2 }, after: null });
  });

  it('pages, sorts by whitelisted fields only, and filters by equality and contains', async () => {
    const db = server.database.db;
    await db.insert(taxes).values(['Paging 1', 'Paging 2', 'Paging 3', 'Paging 100%', 'Paging_x'].map((name, i) => ({ brandId: 8, name, percent: String(i), isActive: i !== 2 })));
    const list = (query: Record<string, unknown>) => server.api.get(`${TAX}/GetAllByBrandId`, { ...as('admin'), query: { brandId: 8, ...query } });

    const page = await list({ name: 'Paging', Sorting: 'name asc', SkipCount: 1, MaxResultCount: 2 });
    expect(page.body.result).toMatchObject({ totalCount: 5 });
    expect(page.body.result.data.map((t: { name: string }) => t.name)).toEqual(['Paging 100%', 'Paging 2']);
    expect((await list({ Sorting: 'ID DESC', MaxResultCount: 1 })).body.result.data[0].name).toBe('Paging_x');
    // % and _ are literal text, not patterns
    expect((await list({ name: '0%' })).body.result.data.map((t: { name: string }) => t.name)).toEqual(['Paging 100%']);
    expect((await list({ Search: 'g_x' })).body.result.data.map((t: { name: string }) => t.name)).toEqual(['Paging_x']);
    expect((await list({ name: 'Paging', isActive: false })).body.result.data.map((t: { name: string }) => t.name)).toEqual(['Paging 3']);
    expect((await list({ MaxResultCount: 1000 })).status).toBe(200);

    for (const Sorting of ['brandId asc', 'name sideways', 'name; drop table taxes', 'percent asc, id']) {
      const res = await list({ Sorting });
      expect(res.status, Sorting).toBe(400);
      expect(res.body.error?.message).toMatch(/Sort by id, name, percent, isActive/);
    }
    for (const query of [{ SkipCount: -1 }, { MaxResultCount: 0 }, { isActive: 'maybe' }, { brandId: 'seven' }, { id: 0 }]) {
      expect((await list(query)).status, JSON.stringify(query)).toBe(400);
    }
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad: [string, 'post' | 'put', Record<string, unknown>][] = [
      ['no name', 'post', { brandId: 7, percent: 5 }],
      ['blank name', 'post', { brandId: 7, name: '   ', percent: 5 }],
      ['percent above 100', 'post', { brandId: 7, name: 'X', percent: 100.5 }],
      ['negative percent', 'post', { brandId: 7, name: 'X', percent: -1 }],
      ['percent not a number', 'post', { brandId: 7, name: 'X', percent: 'lots' }],
      ['more than 3 decimals', 'post', { brandId: 7, name: 'X', percent: 1.0001 }],
      ['no brand', 'post', { name: 'X', percent: 1 }],
      ['brand id out of range', 'post', { brandId: 99999999999, name: 'X', percent: 1 }],
      ['update without id', 'put', { name: 'X' }],
      ['update with a blank name', 'put', { id: tax7, name: '' }],
      ['update with percent as text', 'put', { id: tax7, percent: 'ten' }],
    ];
    const [taxesBefore, auditBefore, rowBefore] = [await countRows(server, 'taxes'), await auditCount(), await taxRow(tax7)];
    for (const [what, verb, body] of bad) {
      const res = await server.api[verb](`${TAX}/${verb === 'post' ? 'Create' : 'Update'}`, { ...as('admin'), body });
      expect(res.status, what).toBe(400);
      expect(res.body.success, what).toBe(false);
      expect(res.body.error?.message, what).toBeTruthy();
    }
    expect((await server.api.delete(`${TAX}/Delete`, { ...as('admin'), query: { TaxId: 'x' } })).status).toBe(400);
    expect((await server.api.delete(`${TAX}/Delete`, as('admin'))).status).toBe(400);
    expect(await countRows(server, 'taxes')).toBe(taxesBefore);
    expect(await auditCount()).toBe(auditBefore);
    expect(await taxRow(tax7)).toEqual(rowBefore);
  });

  it('answers 400 naming the field for a brand that does not exist, and 404 for an unknown tax', async () => {
    const before = await countRows(server, 'taxes');
    const res = await server.api.post(`${TAX}/Create`, { ...as('admin'), body: { brandId: 4242, name: 'X', percent: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error?.validationErrors?.[0].members).toEqual(['brandId']);
    expect((await server.api.put(`${TAX}/Update`, { ...as('admin'), body: { id: 4242, name: 'X' } })).status).toBe(404);
    expect((await server.api.delete(`${TAX}/Delete`, { ...as('admin'), query: { TaxId: 4242 } })).status).toBe(404);
    expect(await countRows(server, 'taxes')).toBe(before);
  });

  it('never moves a tax to another brand through Update', async () => {
    const res = await server.api.put(`${TAX}/Update`, { ...as('companyadmin'), body: { id: tax7, brandId: 8, name: 'Service charge' } });
    expect(res.status).toBe(200);
    expect(res.body.result.brandId).toBe(7);
  });
});

describe('Tax scope: role × action (company 1 owns brand 7, brand 8 belongs to company 2)', () => {
  type Outcome = number;
  // [who, list brand 7, list brand 8 (rows seen), create on 7, create on 8, update/delete own-company row, update/delete other company's row]
  const MATRIX: [Who, { list: Outcome; create7: Outcome; create8: Outcome; updateOwn: Outcome; updateOther: Outcome }][] = [
    ['admin', { list: 200, create7: 200, create8: 200, updateOwn: 200, updateOther: 200 }],
    ['companyadmin', { list: 200, create7: 200, create8: 400, updateOwn: 200, updateOther: 404 }],
    ['brandmanager', { list: 403, create7: 403, create8: 403, updateOwn: 403, updateOther: 403 }],
    ['branchuser', { list: 403, create7: 403, create8: 403, updateOwn: 403, updateOther: 403 }],
    ['customer', { list: 403, create7: 403, create8: 403, updateOwn: 403, updateOther: 403 }],
    ['anonymous', { list: 401, create7: 401, create8: 401, updateOwn: 401, updateOther: 401 }],
  ];

  it.each(MATRIX)('%s', async (who, expected) => {
    const list = await server.api.get(`${TAX}/GetAllByBrandId`, { ...as(who), query: { MaxResultCount: 100 } });
    expect(list.status).toBe(expected.list);
    if (list.status === 200) {
      const brands = new Set(list.body.result.data.map((t: { brandId: number }) => t.brandId));
      expect([...brands].sort()).toEqual(who === 'admin' ? [7, 8] : [7]);
      // a filter never widens the scope
      const other = await server.api.get(`${TAX}/GetAllByBrandId`, { ...as(who), query: { brandId: 8, id: tax8 } });
      expect(other.body.result.totalCount).toBe(who === 'admin' ? 1 : 0);
    }

    for (const [brandId, status] of [[7, expected.create7], [8, expected.create8]] as const) {
      const [n, audit] = [await countRows(server, 'taxes'), await auditCount()];
      const res = await server.api.post(`${TAX}/Create`, { ...as(who), body: { brandId, name: `By ${who}`, percent: 1 } });
      expect(res.status, `create on brand ${brandId}`).toBe(status);
      if (status === 200) await server.api.delete(`${TAX}/Delete`, { token: token.admin, query: { TaxId: res.body.result.id } });
      else expect([await countRows(server, 'taxes'), await auditCount()]).toEqual([n, audit]);
    }

    for (const [id, status] of [[tax7, expected.updateOwn], [tax8, expected.updateOther]] as const) {
      const before = await taxRow(id);
      const audit = await auditCount();
      const upd = await server.api.put(`${TAX}/Update`, { ...as(who), body: { id, name: `${before.name}` , percent: Number(before.percent) + 1 } });
      expect(upd.status, `update ${id}`).toBe(status);
      if (status === 200) {
        await server.api.put(`${TAX}/Update`, { token: token.admin, body: { id, percent: Number(before.percent) } });
      } else {
        expect(await taxRow(id)).toEqual(before);
        expect(await auditCount()).toBe(audit);
        const del = await server.api.delete(`${TAX}/Delete`, { ...as(who), query: { TaxId: id } });
        expect(del.status, `delete ${id}`).toBe(status);
        expect(await taxRow(id)).toEqual(before);
        expect(await auditCount()).toBe(audit);
      }
    }
  });

  it('history follows the same scope and capability', async () => {
    const history = (who: Who, id: number) => server.api.get(HISTORY, { ...as(who), query: { resource: 'Tax', id } });
    expect((await history('companyadmin', tax7)).status).toBe(200);
    expect((await history('companyadmin', tax8)).status).toBe(404);
    expect((await history('admin', tax8)).status).toBe(200);
    expect((await history('brandmanager', tax7)).status).toBe(403);
    expect((await history('customer', tax7)).status).toBe(403);
    expect((await history('anonymous', tax7)).status).toBe(401);
    const unknown = await server.api.get(HISTORY, { ...as('admin'), query: { resource: 'Nope', id: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toMatch(/Known: Tax, AppUpdates/);
  });

  it('scopes brand-level rows for every role (the rule itself, on the database)', async () => {
    const db = server.database.db;
    const seen = async (caller: Parameters<typeof taxResource.list>[1]) =>
      [...new Set((await taxResource.list(db, caller, { SkipCount: 0, MaxResultCount: 100 })).data.map((t) => t.brandId))].sort();
    const base = { id: 99, companyId: null, brandId: null, branchId: null, isGuest: false };
    expect(await seen({ ...base, role: 'ADMIN' })).toEqual([7, 8]);
    expect(await seen({ ...base, role: 'COMPANY_ADMIN', companyId: 2 })).toEqual([8]);
    expect(await seen({ ...base, role: 'BRAND_MANAGER', companyId: 1, brandId: 7 })).toEqual([7]);
    // a branch user's place is narrower than a brand: brand rows are not theirs
    expect(await seen({ ...base, role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1 })).toEqual([]);
    expect(await seen({ ...base, role: 'COMPANY_ADMIN' })).toEqual([]);
    expect(await seen({ ...base, role: 'CUSTOMER' })).toEqual([]);
  });
});

describe('writes and their audit entries share one transaction', () => {
  it('a failing audit insert undoes the write', async () => {
    const db = server.database.db;
    await db.execute(sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`));
    await db.execute(sql.raw(`create trigger refuse_audit before insert on audit_log for each row when (new.row_id = ${tax7}) execute function refuse_audit()`));
    try {
      const before = await taxRow(tax7);
      const res = await server.api.put(`${TAX}/Update`, { ...as('admin'), body: { id: tax7, name: 'Never saved' } });
      expect(res.status).toBe(500);
      expect(await taxRow(tax7)).toEqual(before);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_audit on audit_log'));
      await db.execute(sql.raw('drop function refuse_audit()'));
    }
  });

  it('a delete that other rows refer to is refused with 409, and nothing is removed or logged', async () => {
    const db = server.database.db;
    await db.execute(sql.raw('create table tax_refs (tax_id integer not null references taxes(id))'));
    await db.execute(sql.raw(`insert into tax_refs values (${tax7})`));
    try {
      const audit = await auditCount();
      const res = await server.api.delete(`${TAX}/Delete`, { ...as('admin'), query: { TaxId: tax7 } });
      expect(res.status).toBe(409);
      expect(res.body.error?.message).toBe('This tax cannot be deleted: orders, customers or users refer to it, and their history is kept.');
      expect(await taxRow(tax7)).toBeDefined();
      expect(await auditCount()).toBe(audit);
    } finally {
      await db.execute(sql.raw('drop table tax_refs'));
    }
  });
});

describe('AppUpdates (SPEC.md 7: Insert, Update, GetAllUpdatesList, Delete?Id), ADMIN only', () => {
  it('inserts, lists newest first, changes and deletes a release', async () => {
    const first = await server.api.post(`${UPDATES}/Insert`, { ...as('admin'), body: { platform: 'android', version: '2.4.0', title: 'Faster checkout', releasedAt: '2025-01-10T08:00:00.000Z' } });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ platform: 'android', version: '2.4.0', notes: '', isForceUpdate: false, releasedAt: '2025-01-10T08:00:00.000Z' });
    const second = await server.api.post(`${UPDATES}/Insert`, { ...as('admin'), body: { platform: 'ios', version: '2.5', title: 'Car service', notes: 'Tell us your car', isForceUpdate: true } });
    expect(second.status).toBe(200);

    const list = await server.api.get(`${UPDATES}/GetAllUpdatesList`, as('admin'));
    expect(list.body.result.data.map((u: { version: string }) => u.version)).toEqual(['2.5', '2.4.0']);
    expect((await server.api.get(`${UPDATES}/GetAllUpdatesList`, { ...as('admin'), query: { platform: 'android' } })).body.result.totalCount).toBe(1);
    expect((await server.api.get(`${UPDATES}/GetAllUpdatesList`, { ...as('admin'), query: { Search: 'CAR' } })).body.result.data[0].version).toBe('2.5');

    const upd = await server.api.put(`${UPDATES}/Update`, { ...as('admin'), body: { id: first.body.result.id, isForceUpdate: true } });
    expect(upd.body.result).toMatchObject({ version: '2.4.0', isForceUpdate: true });
    expect((await server.api.delete(`${UPDATES}/Delete`, { ...as('admin'), query: { Id: second.body.result.id } })).body.result).toBe(true);
    const history = await server.api.get(HISTORY, { ...as('admin'), query: { resource: 'AppUpdates', id: first.body.result.id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['update', 'create']);
  });

  it('refuses bad input and unknown sorting with 400, writing nothing', async () => {
    const [n, audit] = [await countRows(server, 'app_updates'), await auditCount()];
    for (const body of [
      { platform: 'windows', version: '1.0', title: 'X' },
      { platform: 'ios', version: 'one', title: 'X' },
      { platform: 'ios', version: '1.0', title: ' ' },
      { platform: 'ios', version: '1.0', title: 'X', releasedAt: 'yesterday' },
      { platform: 'ios', version: '1.0', title: 'X', isForceUpdate: 'sometimes' },
    ]) {
      expect((await server.api.post(`${UPDATES}/Insert`, { ...as('admin'), body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await server.api.get(`${UPDATES}/GetAllUpdatesList`, { ...as('admin'), query: { platform: 'windows' } })).status).toBe(400);
    expect((await server.api.get(`${UPDATES}/GetAllUpdatesList`, { ...as('admin'), query: { Sorting: 'notes asc' } })).status).toBe(400);
    expect([await countRows(server, 'app_updates'), await auditCount()]).toEqual([n, audit]);
  });

  it.each(['companyadmin', 'brandmanager', 'branchuser', 'customer', 'anonymous'] as const)('is refused to %s, nothing written', async (who) => {
    const status = who === 'anonymous' ? 401 : 403;
    const [n, audit] = [await countRows(server, 'app_updates'), await auditCount()];
    expect((await server.api.get(`${UPDATES}/GetAllUpdatesList`, as(who))).status).toBe(status);
    expect((await server.api.post(`${UPDATES}/Insert`, { ...as(who), body: { platform: 'ios', version: '9.9', title: 'No' } })).status).toBe(status);
    expect((await server.api.put(`${UPDATES}/Update`, { ...as(who), body: { id: 1, title: 'No' } })).status).toBe(status);
    expect((await server.api.delete(`${UPDATES}/Delete`, { ...as(who), query: { Id: 1 } })).status).toBe(status);
    expect([await countRows(server, 'app_updates'), await auditCount()]).toEqual([n, audit]);
  });
});
