import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { rowsOf } from '../../server/db/client';
import { SEARCH_GATHERED } from '../../server/orders/list';
import { transitionOrder } from '../../server/orders/transition';

/**
 * The staff lists' second pass at scale (issue 14): a list's total is counted once and kept between
 * order events (a deep page no longer counts the whole scope on every jump), and a search that
 * matches more orders than it gathers walks the list with the search as a filter. Every page is
 * compared with a plain query of the same rows.
 */
let token: { admin: string; brand: string };
const FILLED = 6_000;
const STORE = '/api/services/app/Store';

/** The SQL texts the server sent to its database while `run` ran. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const client = server.database.client as { query: (...args: unknown[]) => Promise<unknown> };
  const query = client.query;
  const seen: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    seen.push(typeof first === 'string' ? first : first?.text ?? '');
    return query.apply(this, args);
  };
  try { await run(); } finally { client.query = query; }
  return seen;
}

const server = useServer();
beforeAll(async () => {
  await server.database.db.execute(sql`
    insert into orders (order_number, brand_id, branch_id, user_id, guest_customer_name, guest_phone_number, delivery_system,
                        status, payment, payment_system_id, subtotal, total, ohash, created_at)
    select 'K' || (1 + g % 2) || '-' || lpad(g::text, 6, '0'), 7 + g % 2, 1 + g % 2, case when g % 2 = 0 then 5 else 18 end,
           'Walk-in ' || (g % 97), '+9656' || lpad((g * 7919 % 10000000)::text, 7, '0'),
           'pickup', (array['pending', 'accepted', 'ready', 'closed', 'rejected'])[1 + g % 5],
           case when g % 7 = 0 then 'unpaid' else 'paid' end, 2,
           round((1 + (g % 40) / 10.0)::numeric, 3), round((1 + (g % 40) / 10.0)::numeric, 3), md5('k' || g),
           now() - make_interval(mins => g / 4)
    from generate_series(1, ${FILLED}) g`);
  await server.database.db.execute(sql`analyze`);
  token = { admin: await server.api.login('admin'), brand: await server.api.login('brandmanager') };
}, 120_000);

const list = (who: keyof typeof token, query: Record<string, unknown>, call = 'GetUserOrdersAsBranchUser') =>
  server.api.get(`${STORE}/${call}`, { token: token[who], query: { SkipCount: 0, MaxResultCount: 50, ...query } });
const idsOf = (res: Awaited<ReturnType<typeof list>>) => (res.body.result.data as { id: number }[]).map((o) => o.id);
const reference = async (where: string, orderSql: string) =>
  rowsOf<{ id: number }>(await server.database.db.execute(sql.raw(
    `select o.id from orders o left join users u on u.id = o.user_id where ${where} order by ${orderSql}`))).map((r) => Number(r.id));
const searched = (text: string) =>
  `(o.order_number || ' ' || coalesce(o.guest_customer_name, '') || ' ' || coalesce(o.guest_phone_number, '') ilike '%${text}%'
    or u.full_name ilike '%${text}%' or u.phone_number ilike '%${text}%')`;

describe('a search that matches more orders than it gathers', () => {
  it.each([
    ['sara cust', '', 'o.id desc'],
    ['sara cust', 'total desc', 'o.total desc, o.id desc'],
    ['sara cust', 'createdAt asc', 'o.created_at asc, o.id asc'],
    ['+9656', 'status asc', 'o.status asc, o.id asc'],
  ])('"%s" sorted by "%s": first, deep and last pages are the plain query\'s slices', async (text, sorting, orderSql) => {
    const rows = await reference(`o.brand_id = 7 and ${searched(text)}`, orderSql);
    expect(rows.length).toBeGreaterThan(SEARCH_GATHERED);
    const last = Math.floor((rows.length - 1) / 50) * 50;
    for (const skip of [0, 550, last - 600, last]) {
      const res = await list('brand', { Search: text, SkipCount: skip, ...(sorting && { Sorting: sorting }) });
      expect(res.status).toBe(200);
      expect(res.body.result.totalCount).toBe(rows.length);
      expect(idsOf(res), `skip ${skip}`).toEqual(rows.slice(skip, skip + 50));
    }
  });

  it('a narrow search (its ids gathered) and its status counts are the plain query\'s', async () => {
    const rows = await reference(`${searched('Walk-in 13')}`, 'o.total desc, o.id desc');
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.length).toBeLessThanOrEqual(SEARCH_GATHERED);
    const res = await list('admin', { Search: 'Walk-in 13', Sorting: 'total desc', SkipCount: 50, IncludeCounts: true });
    expect(res.body.result.totalCount).toBe(rows.length);
    expect(idsOf(res)).toEqual(rows.slice(50, 100));
    const [{ n }] = rowsOf<{ n: number }>(await server.database.db.execute(sql.raw(
      `select count(*)::int as n from orders o left join users u on u.id = o.user_id where o.status = 'closed' and ${searched('Walk-in 13')}`)));
    expect(res.body.result.counts.closed).toBe(n);
  });

  it('a broad search\'s status counts are the plain query\'s', async () => {
    const res = await list('brand', { Search: 'sara cust', MaxResultCount: 1, IncludeCounts: true });
    const [{ n }] = rowsOf<{ n: number }>(await server.database.db.execute(sql.raw(
      `select count(*)::int as n from orders o left join users u on u.id = o.user_id where o.brand_id = 7 and o.status = 'pending' and ${searched('sara cust')}`)));
    expect(res.body.result.counts.pending).toBe(n);
  });
});

describe('a list\'s total is counted once and kept between order events', () => {
  const fullCounts = (statements: string[]) => statements.filter((s) => /count\(\*\)/i.test(s) && !/"id" > /.test(s));

  it('jumping between deep pages counts the scope once; later pages read only the orders added since', async () => {
    const rows = await reference('o.brand_id = 7', 'o.total desc, o.id desc');
    const last = Math.floor((rows.length - 1) / 50) * 50;
    const first = await statementsOf(() => list('brand', { SkipCount: last - 1_000, Sorting: 'total desc' }));
    // The first jump may count (or find the total already kept by an earlier call); later jumps never do.
    expect(fullCounts(first).length).toBeLessThanOrEqual(1);
    for (const skip of [last, last - 500, 600]) {
      let res!: Awaited<ReturnType<typeof list>>;
      const statements = await statementsOf(async () => { res = await list('brand', { SkipCount: skip, Sorting: 'total desc' }); });
      expect(fullCounts(statements), statements.join('\n')).toEqual([]);
      expect(res.body.result.totalCount).toBe(rows.length);
      expect(idsOf(res), `skip ${skip}`).toEqual(rows.slice(skip, skip + 50));
    }
  });

  it('a new order is in the total and on its page at once, with or without its event', async () => {
    const before = (await list('brand', { MaxResultCount: 1 })).body.result.totalCount as number;
    const added = await insertOrder(server, { total: '0.001' as never });
    const rows = await reference('o.brand_id = 7', 'o.total desc, o.id desc');
    expect(rows.length).toBe(before + 1);
    const last = Math.floor((rows.length - 1) / 50) * 50;
    const res = await list('brand', { SkipCount: last, Sorting: 'total desc' });
    expect(res.body.result.totalCount).toBe(rows.length);
    expect(idsOf(res)).toEqual(rows.slice(last));
    expect(idsOf(res)).toContain(added.id);
  });

  it('a change of an order (its event) moves it between the lists\' totals and pages', async () => {
    const unpaid = async () => reference(`o.brand_id = 7 and o.payment = 'unpaid'`, 'o.id desc');
    const call = 'GetUnPaidUserOrdersAsBranchUser';
    const before = await unpaid();
    const deep = Math.max(0, Math.floor((before.length - 1) / 50) * 50);
    expect((await list('brand', { SkipCount: deep }, call)).body.result.totalCount).toBe(before.length);
    const all = await reference('o.brand_id = 7', 'o.total desc, o.id desc');
    const allDeep = Math.floor((all.length - 1) / 50) * 50;
    expect((await list('brand', { SkipCount: allDeep, Sorting: 'total desc' })).body.result.totalCount).toBe(all.length);
    await transitionOrder({ db: server.database.db, events: server.events }, before[before.length - 1], { type: 'order.markPaid' }, null);
    const after = await unpaid();
    expect(after.length).toBe(before.length - 1);
    const res = await list('brand', { SkipCount: deep }, call);
    expect(res.body.result.totalCount).toBe(after.length);
    expect(idsOf(res)).toEqual(after.slice(deep, deep + 50));
    // A list no change moves orders in or out of (every order of the scope) keeps its total: no count.
    let whole!: Awaited<ReturnType<typeof list>>;
    const statements = await statementsOf(async () => { whole = await list('brand', { SkipCount: allDeep, Sorting: 'total desc' }); });
    expect(fullCounts(statements)).toEqual([]);
    expect(whole.body.result.totalCount).toBe(all.length);
    expect(idsOf(whole)).toEqual(all.slice(allDeep, allDeep + 50));
  });
});
