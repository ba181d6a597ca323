import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { guestOrderBody } from '../support/guestOrders';
import { useServer } from '../support/harness';
import { rowsOf } from '../../server/db/client';
import { branches } from '../../server/db/schema';

/**
 * Companies (SPEC.md 7 Company; screens /companies and /companies/{id}): the calls, bad input, a
 * role × call scope matrix with nothing written on refusal, and what pausing or shutting a company
 * out means for the shop (no brand in the picker, no order).
 */
const COMPANY = '/api/services/app/Company';
const HISTORY = '/api/services/app/AuditLog/GetEntityHistory';
const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'anonymous';
const token = {} as Record<Who, string | undefined>;

const server = useServer();
beforeAll(async () => {
  for (const u of USERS) token[u] = await server.api.login(u);
  token.anonymous = undefined;
});

const as = (who: Who) => ({ token: token[who] });
const db = () => server.database.db;
/** Everything a company call could write: the companies and brands as stored, and the history. */
const state = async () => ({
  companies: rowsOf(await db().execute(sql`select * from companies order by id`)),
  brands: rowsOf(await db().execute(sql`select * from brands order by id`)),
  audit: await countRows(server, 'audit_log'),
});
const companyRow = async (id: number) =>
  rowsOf<{ name: string; accessible: boolean; paused: boolean; category_id: number | null; logo_url: string | null }>(
    await db().execute(sql`select * from companies where id = ${id}`))[0];

describe('Company calls', () => {
  it('creates a company with its images, lists, reads, changes and deletes it, each write in its history', async () => {
    const created = await server.api.post(`${COMPANY}/Create`, {
      ...as('admin'), body: { name: 'Gulf Roasters', categoryId: 1, logoUrl: '/uploads/aa.png', bannerUrl: null },
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ name: 'Gulf Roasters', categoryId: 1, accessible: true, paused: false, logoUrl: '/uploads/aa.png', bannerUrl: null });
    const id = created.body.result.id as number;

    const list = await server.api.get(`${COMPANY}/GetAllCompanies`, { ...as('admin'), query: { Sorting: 'name asc' } });
    expect(list.status).toBe(200);
    expect(list.body.result.data.map((c: { name: string }) => c.name)).toEqual(['Dune Foods', 'Gulf Roasters', 'Mango Hospitality']);
    expect((await server.api.get(`${COMPANY}/GetAllCompanies`, { ...as('admin'), query: { Search: 'roast' } })).body.result.totalCount).toBe(1);
    expect((await server.api.get(`${COMPANY}/GetAllCompanies`, { ...as('admin'), query: { categoryId: 2 } })).body.result.data.map((c: { id: number }) => c.id)).toEqual([2]);

    const one = await server.api.get(`${COMPANY}/GetCompanyById`, { ...as('admin'), query: { companyId: id } });
    expect(one.body.result).toEqual(created.body.result);

    const updated = await server.api.put(`${COMPANY}/UpdateCompany`, { ...as('admin'), body: { id, name: 'Gulf Roasters Co.', categoryId: 2 } });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({ id, name: 'Gulf Roasters Co.', categoryId: 2, logoUrl: '/uploads/aa.png' });

    const paused = await server.api.post(`${COMPANY}/ChangeCompanyPauseStatus`, { ...as('admin'), body: { companyId: id, paused: true } });
    expect(paused.status).toBe(200);
    expect(paused.body.result).toMatchObject({ id, paused: true, accessible: true });
    const shut = await server.api.post(`${COMPANY}/ChangeCompanyAccessStatus`, { ...as('admin'), body: { companyId: id, accessible: false } });
    expect(shut.body.result).toMatchObject({ id, paused: true, accessible: false });
    expect((await server.api.get(`${COMPANY}/GetAllCompanies`, { ...as('admin'), query: { accessible: false } })).body.result.data.map((c: { id: number }) => c.id)).toEqual([id]);

    const deleted = await server.api.delete(`${COMPANY}/DeleteCompany`, { ...as('admin'), query: { companyId: id } });
    expect(deleted.status).toBe(200);
    expect(await companyRow(id)).toBeUndefined();

    const history = await server.api.get(HISTORY, { ...as('admin'), query: { resource: 'Company', id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['delete', 'update', 'update', 'update', 'create']);
    expect(history.body.result.data[1]).toMatchObject({ before: { accessible: true }, after: { accessible: false } });
  });

  it('answers the categories by name', async () => {
    const res = await server.api.get(`${COMPANY}/GetAllCompanyCategories`, as('companyadmin'));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([{ id: 2, name: 'Bakery' }, { id: 1, name: 'Coffee & Café' }]);
  });

  it('refuses to delete a company that brands, users or orders refer to (409), and removes nothing', async () => {
    const before = await state();
    const res = await server.api.delete(`${COMPANY}/DeleteCompany`, { ...as('admin'), query: { companyId: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe('This company cannot be deleted: orders, customers or users refer to it, and their history is kept.');
    expect(await state()).toEqual(before);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad: [string, 'post' | 'put', string, Record<string, unknown>][] = [
      ['no name', 'post', 'Create', { categoryId: 1 }],
      ['empty name', 'post', 'Create', { name: '', categoryId: 1 }],
      ['blank name', 'post', 'Create', { name: '   ', categoryId: 1 }],
      ['name too long', 'post', 'Create', { name: 'x'.repeat(121), categoryId: 1 }],
      ['no category', 'post', 'Create', { name: 'X' }],
      ['unknown category', 'post', 'Create', { name: 'X', categoryId: 999 }],
      ['category as text', 'post', 'Create', { name: 'X', categoryId: 'coffee' }],
      ['logo on another scheme', 'post', 'Create', { name: 'X', categoryId: 1, logoUrl: 'javascript:alert(1)' }],
      ['logo on another host without scheme', 'post', 'Create', { name: 'X', categoryId: 1, logoUrl: '//evil.example/x.png' }],
      ['update without id', 'put', 'UpdateCompany', { name: 'X' }],
      ['update with an empty name', 'put', 'UpdateCompany', { id: 1, name: '' }],
      ['update with an unknown category', 'put', 'UpdateCompany', { id: 1, categoryId: 999 }],
      ['access without a value', 'post', 'ChangeCompanyAccessStatus', { companyId: 1 }],
      ['access as text', 'post', 'ChangeCompanyAccessStatus', { companyId: 1, accessible: 'maybe' }],
      ['pause without a company', 'post', 'ChangeCompanyPauseStatus', { paused: true }],
    ];
    const before = await state();
    for (const [what, verb, method, body] of bad) {
      const res = await server.api[verb](`${COMPANY}/${method}`, { ...as('admin'), body });
      expect(res.status, what).toBe(400);
      expect(res.body.success, what).toBe(false);
      expect(res.body.error?.message, what).toBeTruthy();
    }
    const unknownCategory = await server.api.post(`${COMPANY}/Create`, { ...as('admin'), body: { name: 'X', categoryId: 999 } });
    expect(unknownCategory.body.error?.validationErrors?.[0]).toEqual({ message: 'There is no company category 999.', members: ['categoryId'] });
    expect((await server.api.delete(`${COMPANY}/DeleteCompany`, { ...as('admin'), query: { companyId: 'x' } })).status).toBe(400);
    expect((await server.api.get(`${COMPANY}/GetCompanyById`, as('admin'))).status).toBe(400);
    // unknown ids are 404
    expect((await server.api.post(`${COMPANY}/ChangeCompanyPauseStatus`, { ...as('admin'), body: { companyId: 4242, paused: true } })).status).toBe(404);
    expect((await server.api.put(`${COMPANY}/UpdateCompany`, { ...as('admin'), body: { id: 4242, name: 'X' } })).status).toBe(404);
    expect((await server.api.get(`${COMPANY}/GetCompanyById`, { ...as('admin'), query: { companyId: 4242 } })).status).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('Company scope: role × call (companyadmin belongs to company 1; company 2 is another)', () => {
  type Case = { call: string; send: (who: Who) => Promise<{ status: number; body: any }>; expect: Record<Who, number> };
  const all = (admin: number, companyadmin: number, rest: number): Record<Who, number> =>
    ({ admin, companyadmin, brandmanager: rest, branchuser: rest, customer: rest, anonymous: 401 });
  const CASES: Case[] = [
    { call: 'GetAllCompanies', send: (w) => server.api.get(`${COMPANY}/GetAllCompanies`, as(w)), expect: all(200, 200, 403) },
    { call: 'GetAllCompanyCategories', send: (w) => server.api.get(`${COMPANY}/GetAllCompanyCategories`, as(w)), expect: all(200, 200, 403) },
    { call: 'GetCompanyById own', send: (w) => server.api.get(`${COMPANY}/GetCompanyById`, { ...as(w), query: { companyId: 1 } }), expect: all(200, 200, 403) },
    { call: 'GetCompanyById other', send: (w) => server.api.get(`${COMPANY}/GetCompanyById`, { ...as(w), query: { companyId: 2 } }), expect: all(200, 404, 403) },
    { call: 'Create', send: (w) => server.api.post(`${COMPANY}/Create`, { ...as(w), body: { name: `By ${w}`, categoryId: 1 } }), expect: all(200, 403, 403) },
    // the same name again: allowed callers write no change, refused ones nothing at all
    { call: 'UpdateCompany own', send: (w) => server.api.put(`${COMPANY}/UpdateCompany`, { ...as(w), body: { id: 1, name: 'Mango Hospitality' } }), expect: all(200, 200, 403) },
    { call: 'UpdateCompany other', send: (w) => server.api.put(`${COMPANY}/UpdateCompany`, { ...as(w), body: { id: 2, name: 'Dune Foods' } }), expect: all(200, 404, 403) },
    { call: 'ChangeCompanyAccessStatus', send: (w) => server.api.post(`${COMPANY}/ChangeCompanyAccessStatus`, { ...as(w), body: { companyId: 1, accessible: true } }), expect: all(200, 403, 403) },
    { call: 'ChangeCompanyPauseStatus', send: (w) => server.api.post(`${COMPANY}/ChangeCompanyPauseStatus`, { ...as(w), body: { companyId: 1, paused: false } }), expect: all(200, 403, 403) },
    { call: 'DeleteCompany', send: (w) => server.api.delete(`${COMPANY}/DeleteCompany`, { ...as(w), query: { companyId: 2 } }), expect: all(409, 403, 403) },
  ];
  const WHO: Who[] = [...USERS, 'anonymous'];

  it.each(CASES.map((c) => [c.call, c] as const))('%s', async (_name, c) => {
    for (const who of WHO) {
      const before = await state();
      const res = await c.send(who);
      expect(res.status, `${c.call} as ${who}`).toBe(c.expect[who]);
      expect(res.body.success, `${c.call} as ${who}`).toBe(res.status === 200);
      if (c.call === 'Create' && res.status === 200) {
        await server.api.delete(`${COMPANY}/DeleteCompany`, { ...as('admin'), query: { companyId: res.body.result.id } });
        continue;
      }
      // reads and no-change writes leave everything as it was; refusals write nothing
      expect(await state(), `${c.call} as ${who}`).toEqual(before);
    }
  });

  it('a company admin sees only their own company, also in the list and its history; ADMIN every one', async () => {
    const mine = await server.api.get(`${COMPANY}/GetCompanyById`, { ...as('companyadmin'), query: { companyId: 1 } });
    expect(mine.body.result).toMatchObject({ id: 1, name: 'Mango Hospitality' });
    const list = await server.api.get(`${COMPANY}/GetAllCompanies`, as('companyadmin'));
    expect(list.body.result).toMatchObject({ totalCount: 1, data: [{ id: 1 }] });
    // a filter never widens the scope
    expect((await server.api.get(`${COMPANY}/GetAllCompanies`, { ...as('companyadmin'), query: { id: 2 } })).body.result.totalCount).toBe(0);
    const every = await server.api.get(`${COMPANY}/GetAllCompanies`, as('admin'));
    expect(every.body.result.data.map((c: { id: number }) => c.id).sort()).toEqual([1, 2]);
    expect((await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'Company', id: 1 } })).status).toBe(200);
    expect((await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'Company', id: 2 } })).status).toBe(404);
    expect((await server.api.get(HISTORY, { ...as('brandmanager'), query: { resource: 'Company', id: 1 } })).status).toBe(403);
  });

  it('a company admin renames their company and changes its images, but not its switches', async () => {
    const res = await server.api.put(`${COMPANY}/UpdateCompany`, { ...as('companyadmin'), body: { id: 1, name: 'Mango Hospitality Group', logoUrl: '/uploads/mango.png', accessible: false, paused: true } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ name: 'Mango Hospitality Group', logoUrl: '/uploads/mango.png', accessible: true, paused: false });
    await server.api.put(`${COMPANY}/UpdateCompany`, { ...as('admin'), body: { id: 1, name: 'Mango Hospitality', logoUrl: null } });
    expect(await companyRow(1)).toMatchObject({ name: 'Mango Hospitality', logo_url: null, accessible: true, paused: false });
  });
});

describe('a paused or shut-out company leaves the shop and takes no orders', () => {
  const shopBrandIds = async () =>
    (await server.api.get('/api/services/app/Brand/GetBrandsForMangoCustomer')).body.result.map((b: { id: number }) => b.id);
  const order = async () => server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
    token: await server.api.guestToken(), body: guestOrderBody(), headers: { 'idempotency-key': randomUUID() },
  });

  it.each([
    ['paused', 'ChangeCompanyPauseStatus', { paused: true }, { paused: false }],
    ['not accessible', 'ChangeCompanyAccessStatus', { accessible: false }, { accessible: true }],
  ] as const)('%s', async (_what, method, off, on) => {
    expect(await shopBrandIds()).toContain(7);
    expect((await server.api.post(`${COMPANY}/${method}`, { ...as('admin'), body: { companyId: 1, ...off } })).status).toBe(200);
    expect(await shopBrandIds()).not.toContain(7);
    expect(await shopBrandIds()).toContain(8);
    const orders = await countRows(server, 'orders');
    const refused = await order();
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe('This brand is not taking orders right now.');
    expect(await countRows(server, 'orders')).toBe(orders);

    expect((await server.api.post(`${COMPANY}/${method}`, { ...as('admin'), body: { companyId: 1, ...on } })).status).toBe(200);
    expect(await shopBrandIds()).toContain(7);
    const taken = await order();
    expect(taken.status).toBe(200);
    expect(await countRows(server, 'orders')).toBe(orders + 1);
  });

  it('a company with an order is never deleted: its order history stays', async () => {
    const [{ n }] = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from orders where brand_id = 7`));
    expect(n).toBeGreaterThan(0);
    const res = await server.api.delete(`${COMPANY}/DeleteCompany`, { ...as('admin'), query: { companyId: 1 } });
    expect(res.status).toBe(409);
    expect(await companyRow(1)).toBeDefined();
    expect((await db().select().from(branches)).length).toBeGreaterThan(0);
  });
});
