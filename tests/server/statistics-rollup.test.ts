import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
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
  // Revenue: the money captured less the refunds completed (docs: "Revenue does not count money given back").
  const kept = sql`(case when o.payment = 'paid' then o.total - (select coalesce(sum(r.amount), 0) from refunds r where r.order_id = o.id and r.status = 'refunded') end)`;
  const [totals] = rowsOf<{ orders: number; revenue: string }>(await db.execute(sql`
    select count(*)::int as orders, coalesce(sum(${kept}), 0)::numeric(12,3)::text as revenue from orders o where ${within}`));
  const cells = rowsOf<{ weekday: number; hour: number; orders: number }>(await db.execute(sql`
    select extract(dow from (o.created_at at time zone 'UTC') + interval '3 hours')::int as weekday,
           extract(hour from (o.created_at at time zone 'UTC') + interval '3 hours')::int as hour, count(*)::int as orders
    from orders o where ${within} group by 1, 2 order by 1, 2`));
  const branches = rowsOf<{ branch_id: number; orders: number; revenue: string }>(await db.execute(sql`
    select r.id as branch_id, count(o.id)::int as orders, coalesce(sum(${kept}), 0)::numeric(12,3)::text as revenue
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

const QUALITY = '/api/services/app/QualityReport/GetBranchQualityReport';

/** The quality report straight from the orders: percentile_cont over every accepted order (the oracle). */
async function directQuality(scope: Scope, range: Range) {
  const within = sql.join([
    sql`o.brand_id in (${sql.raw(scope.brandIds.join(','))})`,
    ...(range.fromDate ? [sql`o.created_at >= ${range.fromDate}::timestamptz`] : []),
    ...(range.toDate ? [sql`o.created_at < ${range.toDate}::timestamptz`] : []),
  ], sql` and `);
  const rows = rowsOf<Record<string, string | number | null>>(await server.database.db.execute(sql`
    select o.branch_id, grouping(o.branch_id)::int as whole, count(*)::int as orders, count(o.accepted_at)::int as accepted,
      percentile_cont(0.5) within group (order by extract(epoch from o.accepted_at - coalesce(o.fired_at, o.created_at))) as median_accept,
      percentile_cont(0.9) within group (order by extract(epoch from o.accepted_at - coalesce(o.fired_at, o.created_at))) as p90_accept,
      percentile_cont(0.5) within group (order by extract(epoch from o.ready_at - o.accepted_at)) as median_ready,
      (count(*) filter (where o.status = 'rejected' and o.refund <> 'approved'))::int as rejected,
      (count(*) filter (where o.status = 'rejected' and o.status_reason = 'Not accepted in time'))::int as not_in_time,
      (count(*) filter (where o.arrival = 'noShow'))::int as no_shows,
      (count(*) filter (where o.refund = 'approved'))::int as refunded,
      coalesce(sum(o.total) filter (where o.refund = 'approved'), 0)::float8 as refunded_amount
    from orders o where ${within} group by grouping sets ((o.branch_id), ()) order by whole desc, o.branch_id`));
  // Rounded to whole seconds as the report rounds them.
  const secs = (v: string | number | null) => (v === null ? null : Math.round(Number(v)));
  return rows.map((r) => [Number(r.whole) === 1 ? 'all' : Number(r.branch_id), r.orders, r.accepted, secs(r.median_accept), secs(r.p90_accept),
    secs(r.median_ready), r.rejected, r.not_in_time, r.no_shows, r.refunded, Number(r.refunded_amount)]);
}

async function servedQuality(scope: Scope, range: Range) {
  const res = await server.api.get(QUALITY, { token: token.admin, query: { ...(scope === ALL ? {} : { brandId: scope.brandIds[0] }), ...range } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  type F = { orders: number; accepted: number; medianAcceptSeconds: number | null; p90AcceptSeconds: number | null; medianReadySeconds: number | null;
    rejected: number; notAcceptedInTime: number; noShows: number; refunded: number; refundedAmount: number };
  const row = (key: string | number, f: F) => [key, f.orders, f.accepted, f.medianAcceptSeconds, f.p90AcceptSeconds, f.medianReadySeconds,
    f.rejected, f.notAcceptedInTime, f.noShows, f.refunded, f.refundedAmount];
  const { overall, branches } = res.body.result as { overall: F; branches: (F & { branchId: number })[] };
  // The oracle lists only the branches with orders in the period.
  return [row('all', overall), ...branches.filter((b) => b.orders > 0).sort((a, b) => a.branchId - b.branchId).map((b) => row(b.branchId, b))];
}

const PAYMENTS = '/api/services/app/PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser';
type PaymentFilter = { brandId?: number; paymentSystemId?: number; refund?: string };
const PAYMENT_FILTERS: PaymentFilter[] = [{}, { brandId: 7 }, { paymentSystemId: 2 }, { refund: 'approved' }, { brandId: 8, refund: 'none' }];

/** Payment History's totals straight from the paid orders (the oracle), and as served, by paid time. */
async function directPayments(filter: PaymentFilter, range: Range) {
  const where = sql.join([
    sql`o.payment = 'paid'`,
    ...(filter.brandId ? [sql`o.brand_id = ${filter.brandId}`] : []),
    ...(filter.paymentSystemId ? [sql`o.payment_system_id = ${filter.paymentSystemId}`] : []),
    ...(filter.refund ? [sql`o.refund = ${filter.refund}`] : []),
    ...(range.fromDate ? [sql`o.paid_at >= ${range.fromDate}::timestamptz`] : []),
    ...(range.toDate ? [sql`o.paid_at < ${range.toDate}::timestamptz`] : []),
  ], sql` and `);
  const [row] = rowsOf<{ n: number; amount: string }>(await server.database.db.execute(sql`
    select count(*)::int as n, coalesce(sum(o.total), 0)::float8 as amount from orders o where ${where}`));
  return { totalCount: Number(row.n), totalAmount: Number(row.amount) };
}
async function servedPayments(filter: PaymentFilter, range: Range) {
  const res = await server.api.get(PAYMENTS, { token: token.admin, query: { ...filter, ...range, MaxResultCount: 1 } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return { totalCount: res.body.result.totalCount, totalAmount: res.body.result.totalAmount };
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
  // A whole Kuwait month (October) and days either side of it: the quality report's monthly rows.
  { fromDate: '2026-09-29T21:00:00Z', toDate: '2026-11-02T10:00:00Z' },
];

async function expectSameAsOrders(when: string) {
  for (const scope of [ALL, BRAND_7, COMPANY_2]) {
    for (const range of RANGES) {
      const [a, b] = [await served(scope, range), await direct(scope, range)];
      expect(a, `${when}: brands ${scope.brandIds} ${JSON.stringify(range)}`).toEqual(b);
      const [q, r] = [await servedQuality(scope, range), await directQuality(scope, range)];
      if (q.length === 1 && r.length === 1 && r[0][1] === 0) r[0] = q[0]; // no orders: the oracle's overall row has nulls alike
      expect(q, `${when}: quality, brands ${scope.brandIds} ${JSON.stringify(range)}`).toEqual(r);
    }
  }
  for (const filter of PAYMENT_FILTERS) {
    for (const range of RANGES) {
      expect(await servedPayments(filter, range), `${when}: payments ${JSON.stringify(filter)} ${JSON.stringify(range)}`)
        .toEqual(await directPayments(filter, range));
    }
  }
}

// A paid order is paid 90 s after it is placed (Payment History reads the paid time): some cross a
// Kuwait midnight or an hour between placing and paying; every seventh is paid without a time.
const order = (branchId: number, userId: number, at: string, extra: Partial<typeof t.orders.$inferInsert> = {}) => ({
  orderNumber: `R-${++n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId: 1 + (n % 2),
  ohash: `rollup-${n}`, total: `${1 + (n % 5)}.250`, subtotal: '1.000', payment: 'paid', status: 'pending', createdAt: new Date(at),
  paidAt: n % 7 === 0 ? null : new Date(new Date(at).getTime() + 90_000), ...extra,
});

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  const users = await server.database.db.insert(t.users).values(['Noura', 'Fahad', 'Dana'].map((name, i) => ({
    userName: `rollup-customer-${i}`, fullName: name, role: 'CUSTOMER', passwordHash: '!', phoneNumber: `+9655888000${i}`,
  }))).returning({ id: t.users.id });
  customers = users.map((u) => u.id);
  const [c1, c2, c3] = customers;
  await server.database.db.insert(t.orders).values([
    order(1, c1, '2026-11-01T20:59:59.999Z'), // Sun 23:59:59.999 Kuwait: the last moment of a day
    order(1, c1, '2026-11-01T21:00:00Z'), //     Mon 00:00 Kuwait: the next day
    order(2, c2, '2026-11-01T06:59:59Z', { payment: 'unpaid', paidAt: null }),
    order(2, c2, '2026-11-01T07:00:00Z'), //     the next hour
    order(3, GUEST_USER_ID, '2026-11-02T10:00:00Z'),
    order(3, c3, '2026-10-15T10:00:00Z', { status: 'closed' }),
  ]);
  // Accepted and readied orders whose times fall in many histogram buckets, on the same buckets,
  // on bucket edges (10 s, 600 s) and beyond the last bound, with fractions of a second.
  const times: [number, number | null][] = [[9.999, 30], [10, 29.5], [10.25, 1800], [12.5, 61], [19.75, null], [35, 95.125],
    [35, 95.125], [600, 14_400.5], [7_300, 40], [0.4, 31], [41.6, 5_000], [55, 120], [125.5, 300], [301, 900], [44, 45]];
  await server.database.db.insert(t.orders).values(times.map(([accept, ready], i) => {
    const at = new Date(Date.UTC(2026, 9, 1 + (i * 3) % 40, (i * 5) % 24, i, 7, 250));
    const acceptedAt = new Date(at.getTime() + accept * 1000);
    return order(i % 3 === 0 ? 1 : i % 3 === 1 ? 2 : 3, [c1, c2, c3][i % 3], at.toISOString(), {
      status: ready === null ? 'accepted' : 'closed', acceptedAt, readyAt: ready === null ? null : new Date(acceptedAt.getTime() + ready * 1000),
    });
  }));
}, 120_000);

describe('Statistics rollup: the same figures as the orders', () => {
  it('on the first call (the rollup is built from every order)', async () => {
    await expectSameAsOrders('first call');
  }, 120_000);

  it('after new orders, in past days too, either side of a Kuwait midnight', async () => {
    const [c1, c2, c3] = customers;
    await server.database.db.insert(t.orders).values([
      order(2, c1, '2026-11-01T20:59:00Z'), //     a past day the rollup already holds
      order(3, c3, '2026-11-02T21:00:00Z'),
      order(1, c2, '2026-11-05T12:00:00Z', { payment: 'unpaid', paidAt: null }),
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
    await transitionOrder(ops, paid[3], { type: 'order.accept' }, null);
    await transitionOrder(ops, paid[3], { type: 'order.ready' }, null);
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

  it('a change committed late, stamped before the newest change already read, is counted (the re-read window skips only orders at the version it recomputed)', async () => {
    const db = server.database.db;
    // The rollup has read every change so far (and remembers each changed order's version).
    await expectSameAsOrders('before the late change');
    const [{ id }] = rowsOf<{ id: number }>(await db.execute(sql`select id from orders where status = 'pending' order by id limit 1`));
    // A lifecycle write whose transaction stamped its update time a minute before the newest change
    // the rollup has seen, and committed only now.
    await db.execute(sql`update orders set status = 'rejected', status_reason = 'Out of milk', version = version + 1,
      updated_at = (select seen_changed_at from statistics_watermark where id = 1) - interval '1 minute' where id = ${id}`);
    await expectSameAsOrders('after a late change');
  }, 120_000);
});
