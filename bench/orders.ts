import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../server/db/client';
import { seed } from '../server/db/seed';
import type { Caller } from '../server/http/context';
import { countOrders, listOrders, orderWhere, statusCounts, type OrderFilter, type OrderPage } from '../server/orders/list';
import { transitionOrder } from '../server/orders/transition';
import { inMemoryOrderEvents } from '../server/events/orderEvents';
import { benchStatisticsOn } from './statistics';

/**
 * The staff order lists at 100,000 orders, on a fresh embedded PGlite. Each query is timed
 * against baselines measured in the same run (a `select 1` round trip and a primary-key lookup),
 * so the ratios mean the same on a slow or a fast machine. Never fails on slowness.
 */
export async function benchOrders(opts: { orders?: number; runs?: number } = {}) {
  const total = opts.orders ?? 100_000;
  const runs = opts.runs ?? 15;
  const t0 = Date.now();
  const database = await openDatabase({ dataDir: 'memory://' });
  await seed(database.db);
  const db = database.db;
  await fill(db, total);
  console.log(`orders bench: ${total.toLocaleString('en')} orders in ${((Date.now() - t0) / 1000).toFixed(1)} s (PGlite, in memory)`);

  const admin: Caller = { id: 1, role: 'ADMIN', companyId: null, brandId: null, branchId: null, isGuest: false };
  const company: Caller = { id: 2, role: 'COMPANY_ADMIN', companyId: 1, brandId: null, branchId: null, isGuest: false };
  const brand: Caller = { id: 3, role: 'BRAND_MANAGER', companyId: 1, brandId: 7, branchId: null, isGuest: false };
  const branch: Caller = { id: 4, role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1, isGuest: false };
  const firstPage: OrderPage = { skip: 0, take: 10 };
  const list = (caller: Caller, filter: OrderFilter = {}, page: OrderPage = firstPage, includeCounts = false) =>
    () => listOrders(db, caller, filter, page, { includeCounts });
  const maxId = total;
  let probe = 1;

  const cases: [string, () => Promise<unknown>][] = [
    ['baseline: select 1', () => db.execute(sql`select 1`)],
    ['baseline: order by primary key', () => db.execute(sql`select * from orders where id = ${(probe = (probe * 7919) % maxId) + 1}`)],
    ['branch user: all, first page', list(branch)],
    ['branch user: current (pending+accepted)', list(branch, { statuses: ['pending', 'accepted'] })],
    ['branch user: current drive-thru', list(branch, { statuses: ['pending', 'accepted'], deliverySystem: 'carService' })],
    ['branch user: page 50 (skip 490)', list(branch, {}, { skip: 490, take: 10 })],
    ['branch user: sorted by total desc', list(branch, {}, { ...firstPage, sorting: 'total desc' })],
    ['branch user: closed history, sorted by createdAt', list(branch, { statuses: ['closed'] }, { ...firstPage, sorting: 'createdAt desc' })],
    ['branch user: all + status counts', list(branch, {}, firstPage, true)],
    ['brand manager: unpaid', list(brand, { payment: 'unpaid' })],
    ['brand manager: search by phone', list(brand, { search: '99001234' })],
    ['company admin: all, first page', list(company)],
    ['company admin: rejected history', list(company, { statuses: ['rejected'] })],
    ['admin: all, first page', list(admin)],
    ['admin: all, 100 rows', list(admin, {}, { skip: 0, take: 100 })],
    ['admin: sorted by status', list(admin, {}, { ...firstPage, sorting: 'status asc' })],
    ['admin: search by order number', list(admin, { search: 'B-0004242' })],
    ['admin: created after id (catch-up)', list(admin, { createdAfterId: total - 20 })],
    ['admin: status counts', () => statusCounts(db, admin, {})],
    ['branch user: count arrived (drive-thru)', () => countOrders(db, orderWhere(branch, { arrival: 'arrived', statuses: ['pending', 'accepted'], deliverySystem: 'carService' }))],
    ['branch user: count served', () => countOrders(db, orderWhere(branch, { arrival: 'served', deliverySystem: 'carService' }))],
    ['write: mark an order read (machine + version check)', async () => {
      probe = (probe * 7919) % maxId;
      await transitionOrder({ db, events: inMemoryOrderEvents() }, probe + 1, { type: 'order.markRead' }, null);
    }],
  ];

  const results: { name: string; median: number }[] = [];
  for (const [name, run] of cases) {
    await run(); // warm up
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await run();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    results.push({ name, median: times[Math.floor(times.length / 2)] });
  }
  const pk = results.find((r) => r.name === 'baseline: order by primary key')!.median;
  const one = results.find((r) => r.name === 'baseline: select 1')!.median;
  console.log(`\n${'query'.padEnd(52)} ${'median ms'.padStart(10)} ${'× pk lookup'.padStart(12)} ${'× select 1'.padStart(11)}`);
  for (const r of results) {
    console.log(`${r.name.padEnd(52)} ${r.median.toFixed(2).padStart(10)} ${(r.median / pk).toFixed(1).padStart(12)} ${(r.median / one).toFixed(1).padStart(11)}`);
  }
  // Issue 13: every statistics call on the same orders, as a ratio of the admin's order list.
  await benchStatisticsOn(db, total);
  await database.close();
  return results;
}

/** 100,000 orders over 20 branches of brands 7 and 8, a year of history, ~2.5 items each, with realistic lifecycle states. */
export async function fill(db: Db, total: number) {
  await db.execute(sql`
    insert into branches (brand_id, name)
    select case when g % 2 = 0 then 7 else 8 end, 'Bench branch ' || g from generate_series(1, 17) g`);
  await db.execute(sql`
    insert into orders (order_number, brand_id, branch_id, user_id, guest_customer_name, guest_phone_number, delivery_system,
                        status, arrival, payment, refund, is_viewed, payment_system_id, subtotal, total, ohash, created_at, updated_at,
                        paid_at, accepted_at, ready_at)
    select 'B-' || lpad(g::text, 7, '0'),
           b.brand_id, b.id,
           case when g % 3 = 0 then 5 else 18 end,
           case when g % 3 = 0 then null else 'Guest ' || (g % 997) end,
           case when g % 3 = 0 then null else '+9659900' || lpad((g % 10000)::text, 4, '0') end,
           d.system,
           s.status,
           case when d.system = 'carService' and s.status = 'closed' then (case when g % 20 = 0 then 'noShow' else 'served' end)
                when d.system = 'carService' and s.status in ('pending', 'accepted') and g % 2 = 0 then 'arrived'
                when d.system = 'pickup' and s.status = 'closed' and g % 25 = 0 then 'noShow'
                else 'none' end,
           case when g % 7 = 0 then 'unpaid' else 'paid' end,
           case when g % 7 <> 0 and g % 97 = 0 then 'requested' else 'none' end,
           s.status <> 'pending' or g % 2 = 0,
           2, round((1 + (g % 200) / 10.0)::numeric, 3), round((1 + (g % 200) / 10.0)::numeric, 3),
           md5(g::text),
           c.at,
           now(),
           case when g % 7 = 0 then null else c.at + interval '1 minute' end,
           case when s.status in ('accepted', 'closed') then c.at + make_interval(secs => 20 + g % 400) end,
           case when s.status = 'closed' then c.at + make_interval(secs => 400 + g % 900) end
    from generate_series(1, ${total}) g
    cross join lateral (select id, brand_id from branches order by id offset (g % 20) limit 1) b
    cross join lateral (select now() - make_interval(mins => ((${total}::bigint - g) * 525600 / ${total})::int) as at) c
    cross join lateral (select case when g % 10 < 5 then 'pickup' when g % 10 < 8 then 'carService' else 'delivery' end as system) d
    cross join lateral (select case when g > ${total} - 40 then (case when g % 2 = 0 then 'pending' else 'accepted' end)
                                    when g % 14 = 0 then 'rejected' else 'closed' end as status) s`);
  await db.execute(sql`
    insert into order_items (order_id, product_id, name, quantity, unit_price, line_total)
    select o.id, p.id, p.name, 1 + (o.id + k) % 3, p.price, p.price * (1 + (o.id + k) % 3)
    from orders o
    cross join generate_series(0, 1 + (select 0)) k
    cross join lateral (select id, name, price from products where brand_id = o.brand_id order by id offset ((o.id + k) % 5) limit 1) p
    where k = 0 or o.id % 2 = 0`);
  // The steady state of a live database, where autovacuum has set the visibility map (index-only counts).
  await db.execute(sql`vacuum analyze`);
}
