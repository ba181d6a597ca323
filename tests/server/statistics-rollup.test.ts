import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { callerTokens, type Who } from '../support/adminMatrix';
import * as t from '../../server/db/schema';
import { rowsOf } from '../../server/db/client';
import { transitionOrder } from '../../server/orders/transition';
import { GUEST_USER_ID } from '../../domain/constants';

/**
 * The statistics rollup (server/services/statistic/rollup.ts) answers exactly what a direct query
 * over the orders answers: after new orders (in past days too), status changes, payments and
 * refunds, orders either side of a Kuwait midnight and an hour boundary, and an order id that was
 * taken before a statistics call but committed after it. The direct query below is the oracle.
 */
const STAT = '/api/services/app/Statistic';
let server: TestServer;
let token: Record<Who, string | undefined>;
let customers: number[];
let n = 0;

type Scope = { brandIds: number[] };
type Range = { fromDate?: string; toDate?: string };
const ALL: Scope = { brandIds: [7, 8] };
const BRAND_7: Scope = { brandIds: [7] };
const COMPANY_2: Scope = { brandIds: [8] };

/** The figures straight from the orders (Kuwait is UTC+3: weekday and hour of created_at + 3 h). */
async function direct(scope: Scope, range: Range) {
  const db = server.database.db;
  const brands = sql.raw(scope.brandIds.join(','));
  const within = sql.join([
    sql`o.brand_id in (${brands})`,
    ...(range.fromDate ? [sql`o.created_at >= ${range.fromDate}::timestamptz`] : []),
    ...(range.toDate ? [sql`o.created_at < ${range.toDate}::timestamptz`] : []),
  ], sql` and `);
  const kept = sql`(o.payment = 'paid' and o.refund <> 'approved')`;
  const [totals] = rowsOf<{ orders: number; revenue: string }>(await db.execute(sql`
    select count(*)::int as orders, coalesce(sum(o.total) filter (where ${kept}), 0)::numeric(12,3)::text as revenue from orders o where ${within}`));
  const cells = rowsOf<{ weekday: number; hour: number; orders: number }>(await db.execute(sql`
    select extract(dow from (o.created_at at time zone 'UTC') + interval '3 hours')::int as weekday,
           extract(hour from (o.created_at at time zone 'UTC') + interval '3 hours')::int as hour, count(*)::int as orders
    from orders o where ${within} group by 1, 2 order by 1, 2`));
  const branches = rowsOf<{ branch_id: number; orders: number; revenue: string }>(await db.execute(sql`
    select r.id as branch_id, count(o.id)::int as orders, coalesce(sum(o.total) filter (where ${kept}), 0)::numeric(12,3)::text as revenue
    from branches r left join orders o on o.branch_id = r.id and ${within}
    where r.brand_id in (${brands}) group by r.id order by r.id`));
  const upToEnd = range.toDate ? sql`o.created_at < ${range.toDate}::timestamptz` : sql`true`;
  const [people] = rowsOf<{ new_customers: number; returning_customers: number }>(await db.execute(sql`
    with active as (
      select distinct o.user_id from orders o join users u on u.id = o.user_id
      where ${within} and u.is_guest = false and u.role = 'CUSTOMER'
    ), history as (
      select o.user_id, count(*) as n from orders o
      where o.brand_id in (${brands}) and ${upToEnd} and o.user_id in (select user_id from active) group by o.user_id
    )
    select (count(*) filter (where n = 1))::int as new_customers, (count(*) filter (where n > 1))::int as returning_customers from history`));
  return {
    orders: Number(totals.orders), revenue: Number(totals.revenue),
    newCustomers: Number(people.new_customers), returningCustomers: Number(people.returning_customers),
    customers: Number(people.new_customers) + Number(people.returning_customers),
    cells: cells.map((c) => [Number(c.weekday), Number(c.hour), Number(c.orders)]),
    branches: branches.map((b) => [Number(b.branch_id), Number(b.orders), Number(b.revenue)]),
  };
}

async function served(scope: Scope, range: Range) {
  const [path, query] = scope === ALL ? ['GetGeneralStatistic', {}]
    : scope === BRAND_7 ? ['GetStatisticByBrand', { brandId: 7 }] : ['GetStatisticByCompany', { companyId: 2 }];
  const res = await server.api.get(`${STAT}/${path}`, { token: token.admin, query: { ...query, ...range } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  const s = res.body.result;
  return {
    orders: s.orders, revenue: s.revenue, newCustomers: s.newCustomers, returningCustomers: s.returningCustomers, customers: s.customers,
    cells: s.ordersByWeekdayHour.map((c: { weekday: number; hour: number; orders: number }) => [c.weekday, c.hour, c.orders]),
    branches: s.revenueByBranch.map((b: { branchId: number; orders: number; revenue: number }) => [b.branchId, b.orders, b.revenue])
      .sort((a: number[], b: number[]) => a[0] - b[0]),
  };
}

/** Periods that cut days (and hours) at odd places, whole days, open ends, and one inside a single day. */
const RANGES: Range[] = [
  {},
  { fromDate: '2026-11-01T20:59:59.500Z' },
  { toDate: '2026-11-02T21:00:00Z' },
  { fromDate: '2026-10-31T21:00:00Z', toDate: '2026-11-02T21:00:00Z' },
  { fromDate: '2026-11-01T07:30:00Z', toDate: '2026-11-03T05:00:00Z' },
  { fromDate: '2026-11-01T20:00:00Z', toDate: '2026-11-01T21:00:00.001Z' },
  { fromDate: '2026-11-02T00:00:00Z', toDate: '2026-11-20T00:00:00Z' },
];

async function expectSameAsOrders(when: string) {
  for (const scope of [ALL, BRAND_7, COMPANY_2]) {
    for (const range of RANGES) {
      const [a, b] = [await served(scope, range), await direct(scope, range)];
      expect(a, `${when}: brands ${scope.brandIds} ${JSON.stringify(range)}`).toEqual(b);
    }
  }
}

const order = (branchId: number, userId: number, at: string, extra: Partial<typeof t.orders.$inferInsert> = {}) => ({
  orderNumber: `R-${++n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId: 2,
  ohash: `rollup-${n}`, total: `${1 + (n % 5)}.250`, subtotal: '1.000', payment: 'paid', status: 'pending', createdAt: new Date(at), ...extra,
});

beforeAll(async () => {
  server = await startTestServer();
  token = await callerTokens(server);
  const users = await server.database.db.insert(t.users).values(['Noura', 'Fahad', 'Dana'].map((name, i) => ({
    userName: `rollup-customer-${i}`, fullName: name, role: 'CUSTOMER', passwordHash: '!', phoneNumber: `+9655888000${i}`,
  }))).returning({ id: t.users.id });
  customers = users.map((u) => u.id);
  const [c1, c2, c3] = customers;
  await server.database.db.insert(t.orders).values([
    order(1, c1, '2026-11-01T20:59:59.999Z'), // Sun 23:59:59.999 Kuwait: the last moment of a day
    order(1, c1, '2026-11-01T21:00:00Z'), //     Mon 00:00 Kuwait: the next day
    order(2, c2, '2026-11-01T06:59:59Z', { payment: 'unpaid' }),
    order(2, c2, '2026-11-01T07:00:00Z'), //     the next hour
    order(3, GUEST_USER_ID, '2026-11-02T10:00:00Z'),
    order(3, c3, '2026-10-15T10:00:00Z', { status: 'closed' }),
  ]);
}, 120_000);
afterAll(async () => { await server?.close(); });

describe('Statistics rollup: the same figures as the orders', () => {
  it('on the first call (the rollup is built from every order)', async () => {
    await expectSameAsOrders('first call');
  }, 120_000);

  it('after new orders, in past days too, either side of a Kuwait midnight', async () => {
    const [c1, c2, c3] = customers;
    await server.database.db.insert(t.orders).values([
      order(2, c1, '2026-11-01T20:59:00Z'), //     a past day the rollup already holds
      order(3, c3, '2026-11-02T21:00:00Z'),
      order(1, c2, '2026-11-05T12:00:00Z', { payment: 'unpaid' }),
      order(2, c3, '2026-10-01T00:00:00Z'), //     before everything: c3's first order now
    ]);
    await expectSameAsOrders('after inserts');
  }, 120_000);

  it('after status changes, a payment, a rejection and an approved refund', async () => {
    const db = server.database.db;
    const ops = { db, events: server.events };
    const ids = rowsOf<{ id: number; payment: string }>(await db.execute(sql`select id, payment from orders where status = 'pending' order by id`));
    const unpaid = ids.find((o) => o.payment === 'unpaid')!.id;
    const paid = ids.filter((o) => o.payment === 'paid').map((o) => o.id);
    await transitionOrder(ops, unpaid, { type: 'order.markPaid' }, null);
    await transitionOrder(ops, paid[0], { type: 'order.accept' }, null);
    await transitionOrder(ops, paid[1], { type: 'order.reject', reason: 'Out of milk' }, null);
    await transitionOrder(ops, paid[2], { type: 'order.requestRefund' }, null);
    await expectSameAsOrders('after a refund request');
    await transitionOrder(ops, paid[2], { type: 'order.approveRefund' }, null);
    await expectSameAsOrders('after an approved refund');
  }, 120_000);

  it('an order id taken before a call but committed after it is counted on the next call', async () => {
    const db = server.database.db;
    const [{ id }] = rowsOf<{ id: number }>(await db.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`));
    // A later order commits first: the call reads past the id still being written.
    await db.insert(t.orders).values(order(1, customers[1], '2026-11-01T08:00:00Z'));
    await expectSameAsOrders('with an id in flight');
    await db.insert(t.orders).values({ ...order(2, customers[0], '2026-11-01T09:00:00Z'), id });
    await expectSameAsOrders('after the id in flight committed');
  }, 120_000);
});
