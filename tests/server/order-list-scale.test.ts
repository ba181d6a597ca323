import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { rowsOf } from '../../server/db/client';
import { countOrders, orderWhere, pageIdsQuery, pagePlacement } from '../../server/orders/list';
import type { Caller } from '../../server/http/context';

/**
 * The staff order lists at scale (issue 14): a deep page of any sort is read from the nearer end of
 * an index that matches the sort and the scope, and a search by a part of a phone, name or order
 * number is answered from trigram indexes. Some thousands of orders, so the planner has a choice.
 */
let token: { admin: string; brand: string };
const FILLED = 6_000;
const STORE = '/api/services/app/Store';
const brandManager: Caller = { id: 3, role: 'BRAND_MANAGER', companyId: 1, brandId: 7, branchId: null, isGuest: false, brandIds: [7] };

let hessa: number;
let numbered: number;
let otherBrand: number;

const server = useServer();
beforeAll(async () => {
  const db = server.database.db;
  // Brands 7 (branch 1) and 8 (branch 2); many equal totals and times, so ties are broken by id.
  await db.execute(sql`
    insert into orders (order_number, brand_id, branch_id, user_id, guest_customer_name, guest_phone_number, delivery_system,
                        status, payment, payment_system_id, subtotal, total, ohash, created_at)
    select 'W' || (1 + g % 2) || '-' || lpad(g::text, 6, '0'), 7 + g % 2, 1 + g % 2, 5,
           case when g % 3 = 0 then null else 'Walk-in ' || (g % 97) end,
           case when g % 3 = 0 then null else '+9656' || lpad((g * 7919 % 10000000)::text, 7, '0') end,
           'pickup', (array['pending', 'accepted', 'ready', 'closed', 'rejected'])[1 + g % 5],
           case when g % 7 = 0 then 'unpaid' else 'paid' end, 2,
           round((1 + (g % 40) / 10.0)::numeric, 3), round((1 + (g % 40) / 10.0)::numeric, 3), md5(g::text),
           now() - make_interval(mins => g / 4)
    from generate_series(1, ${FILLED}) g`);
  hessa = (await insertOrder(server, { guestCustomerName: 'Hessa Al-Sabah', guestPhoneNumber: '+96599887766' })).id;
  numbered = (await insertOrder(server, { orderNumber: 'B1-000123' })).id;
  otherBrand = (await insertOrder(server, { brandId: 8, orderNumber: 'B2-000777', guestCustomerName: 'Hessa Other', guestPhoneNumber: '+96599887700' })).id;
  await db.execute(sql`analyze`);
  token = { admin: await server.api.login('admin'), brand: await server.api.login('brandmanager') };
}, 120_000);

const list = (who: keyof typeof token, query: Record<string, unknown>, call = 'GetUserOrdersAsBranchUser') =>
  server.api.get(`${STORE}/${call}`, { token: token[who], query: { SkipCount: 0, MaxResultCount: 50, ...query } });
const idsOf = (res: Awaited<ReturnType<typeof list>>) => (res.body.result.data as { id: number }[]).map((o) => o.id);

/** What a plan says: every node, depth first. */
function planNodes(explained: unknown): Record<string, unknown>[] {
  const [row] = rowsOf<Record<string, unknown>>(explained);
  const raw = row['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Record<string, unknown> }[];
  const out: Record<string, unknown>[] = [];
  const walk = (node: Record<string, unknown>) => { out.push(node); for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child); };
  walk(plan[0].Plan);
  return out;
}

describe('search by a part of the phone, the name or the order number', () => {
  it.each([
    ['a partial phone', '9887766'],
    ['a phone with its country code and spaces', '+965 9988 7766'],
    ['a phone with a dash', '9988-7766'],
    ['a part of the name, any case', 'hessa al-'],
    ['another part of the name', 'SABAH'],
  ])('finds the order by %s', async (_, search) => {
    const res = await list('brand', { Search: search });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([hessa]);
    expect(res.body.result.totalCount).toBe(1);
  });

  it('finds an order by its number, whole or in part, in any case', async () => {
    for (const search of ['B1-000123', 'b1-000123', '1-000123']) {
      const res = await list('admin', { Search: search });
      expect(idsOf(res), search).toContain(numbered);
    }
    expect(idsOf(await list('admin', { Search: 'B1-000123' }))).toEqual([numbered]);
  });

  it('finds the orders of a registered customer by a part of their name or phone', async () => {
    const all = (await list('admin', { MaxResultCount: 1 })).body.result.totalCount as number;
    const [{ n }] = rowsOf<{ n: number }>(await server.database.db.execute(sql`select count(*)::int as n from orders where user_id = 5`));
    expect((await list('admin', { Search: 'sara cust', MaxResultCount: 1 })).body.result.totalCount).toBe(n);
    expect((await list('admin', { Search: '50000001', MaxResultCount: 1 })).body.result.totalCount).toBe(n);
    expect(n).toBeLessThanOrEqual(all);
  });

  it('stays within the caller\'s scope, and takes % and _ literally', async () => {
    expect(idsOf(await list('brand', { Search: 'B2-000777' }))).toEqual([]);
    expect(idsOf(await list('admin', { Search: 'B2-000777' }))).toEqual([otherBrand]);
    expect(idsOf(await list('brand', { Search: '99887_66' }))).toEqual([]);
    expect(idsOf(await list('brand', { Search: '%' }))).toEqual([]);
  });

  it('a search is one the trigram indexes answer (its expression is the indexed one), never a scan of every order', async () => {
    // A few thousand orders are cheap to scan, so the planner is told not to: what is left is what the indexes can do.
    const admin: Caller = { id: 1, role: 'ADMIN', companyId: null, brandId: null, branchId: null, isGuest: false };
    for (const search of ['9887766', 'Hessa', 'B1-000123', '+965 9988 7766']) {
      const where = orderWhere(admin, { search });
      const plan = await server.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return planNodes(await tx.execute(sql`explain (format json) select count(*) from orders where ${where}`));
      });
      const indexes = plan.map((n) => n['Index Name']).filter(Boolean);
      expect(indexes, `${search}: ${JSON.stringify(plan.map((n) => n['Node Type']))}`).toContain('orders_search_trgm_idx');
      expect(plan.some((n) => n['Node Type'] === 'Seq Scan'), search).toBe(false);
    }
  });
});

describe('pages of every sort, from either end', () => {
  const SORTS: [string, string][] = [
    ['', 'id desc'], ['id asc', 'id asc'], ['total desc', 'total desc, id desc'], ['total asc', 'total asc, id asc'],
    ['createdAt desc', 'created_at desc, id desc'], ['createdAt asc', 'created_at asc, id asc'],
    ['status asc', 'status asc, id asc'], ['status desc', 'status desc, id desc'],
  ];

  it.each(SORTS)('sorted by "%s": first, deep, middle and last pages are the right slices', async (sorting, orderSql) => {
    const reference = rowsOf<{ id: number }>(await server.database.db.execute(sql.raw(`select id from orders where brand_id = 7 order by ${orderSql}`))).map((r) => r.id);
    const total = reference.length;
    expect(total).toBeGreaterThan(2_000);
    const last = Math.floor((total - 1) / 50) * 50;
    for (const skip of [0, 600, Math.floor(total / 2) - 7, total - 1_000, last, total - 50, total]) {
      const res = await list('brand', { SkipCount: skip, ...(sorting && { Sorting: sorting }) });
      expect(res.status).toBe(200);
      expect(res.body.result.totalCount).toBe(total);
      expect(idsOf(res), `${sorting || 'default'} skip ${skip}`).toEqual(reference.slice(skip, skip + 50));
    }
  });

  it('a status history sorted by total, last page', async () => {
    const reference = rowsOf<{ id: number }>(await server.database.db.execute(sql`select id from orders where brand_id = 7 and status = 'closed' order by total desc, id desc`)).map((r) => r.id);
    const last = Math.floor((reference.length - 1) / 50) * 50;
    const res = await list('brand', { SkipCount: last, Sorting: 'total desc' }, 'GetCloseddStatusOrdersHistory');
    expect(idsOf(res)).toEqual(reference.slice(last));
  });

  it.each(['total desc', 'createdAt asc', 'status asc', ''])('the last page sorted by "%s" reads about a page of index entries, not every order before it', async (sorting) => {
    const where = orderWhere(brandManager, {});
    const total = await countOrders(server.database.db, where);
    const last = Math.floor((total - 1) / 50) * 50;
    const query = pageIdsQuery(server.database.db, where, sorting || undefined, pagePlacement(last, 50, total));
    const plan = planNodes(await server.database.db.execute(sql`explain (analyze, format json) ${query}`));
    const scans = plan.filter((n) => String(n['Node Type']).includes('Scan'));
    const read = Math.max(...scans.map((n) => Number(n['Actual Rows'])));
    expect(scans.every((n) => n['Node Type'] !== 'Seq Scan'), JSON.stringify(plan.map((n) => n['Node Type']))).toBe(true);
    expect(read).toBeLessThanOrEqual(100);
  });
});
