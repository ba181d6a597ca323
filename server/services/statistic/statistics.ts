import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { branches, brands, HOUR_COLUMNS, users } from '../../db/schema';
import { customerVisibleTo } from '../customer/loyalty';
import { DAILY_COLUMNS, dailyRowsOf, refreshStatistics, splitPeriod } from './rollup';
import type { Period } from '../../http/period';
import { filsToDecimal, toFils } from '../../../domain/money';

/** Which part of the organisation the figures cover (SPEC.md 6: general, company or brand; the dashboard's filter narrows to one branch). */
export type StatisticScope = { kind: 'general' } | { kind: 'company'; companyId: number } | { kind: 'brand'; brandId: number } | { kind: 'branch'; branchId: number };


export interface Statistic {
  companies: number;
  brands: number;
  branches: number;
  orders: number;
  customers: number;
  /** The scope's customers whenever they joined, as the Customers screen counts them (customerVisibleTo). */
  registeredCustomers: number;
  revenue: number;
  /** Completed refunds of those orders: already taken off revenue. */
  refunded: number;
  /** Refunds decided but not yet back with the customer (pending, failed, owed at the branch): still in revenue. */
  refundsDue: number;
  newCustomers: number;
  returningCustomers: number;
  /** Non-empty cells only; weekday 0 = Sunday, hour 0–23, both in Kuwait time. */
  ordersByWeekdayHour: { weekday: number; hour: number; orders: number }[];
  /** Every branch in scope, with no orders too, by revenue then name. */
  revenueByBranch: { branchId: number; branchName: string; brandId: number; brandName: string; orders: number; revenue: number; refunded: number; refundsDue: number }[];
}

export { utcOffsetOf } from './rollup';

/** The brands of the scope, as a where fragment on a brand id column. */
function brandsOf(scope: StatisticScope, brandId: SQL): SQL {
  switch (scope.kind) {
    case 'general': return sql`true`;
    case 'company': return sql`${brandId} in (select "id" from "brands" where "company_id" = ${scope.companyId})`;
    case 'brand': return sql`${brandId} = ${scope.brandId}`;
    case 'branch': return sql`${brandId} in (select "brand_id" from "branches" where "id" = ${scope.branchId})`;
  }
}

/** The branches of the scope, as a where fragment on a branch id column (every branch of its brands, or the one branch). */
const branchesOf = (scope: StatisticScope, branchId: SQL): SQL => (scope.kind === 'branch' ? sql`${branchId} = ${scope.branchId}` : sql`true`);
const placeOf = (scope: StatisticScope, o: string) => sql`${brandsOf(scope, sql.raw(`${o}."brand_id"`))} and ${branchesOf(scope, sql.raw(`${o}."branch_id"`))}`;

/**
 * The customers of a scope as the Customers screen counts them (customerVisibleTo, the one rule):
 * every registered customer for the whole platform; for a company, brand or branch those with a
 * wallet, an order or a reward card scan there.
 */
async function registeredCustomersOf(db: Db, scope: StatisticScope): Promise<number> {
  const place = { id: 0, isGuest: false, companyId: null, brandId: null, branchId: null };
  const where = scope.kind === 'general' ? customerVisibleTo(db, { ...place, role: 'ADMIN' })
    : scope.kind === 'company' ? customerVisibleTo(db, { ...place, role: 'COMPANY_ADMIN', companyId: scope.companyId })
      : scope.kind === 'brand' ? customerVisibleTo(db, { ...place, role: 'ADMIN' }, scope.brandId)
        : customerVisibleTo(db, { ...place, role: 'BRANCH_USER', branchId: scope.branchId });
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  return Number(row?.n ?? 0);
}

/** `column` lies in [from, to) of the period (either end open). */
export const inPeriod = (column: SQL, period: Period) => sql.join([
  sql`true`,
  ...(period.from ? [sql`${column} >= ${period.from.toISOString()}::timestamptz`] : []),
  ...(period.to ? [sql`${column} < ${period.to.toISOString()}::timestamptz`] : []),
], sql` and `);

/**
 * The statistics of one scope over one period, all from the orders (docs/decisions.md
 * "Engagement: news and statistics"):
 * - companies, brands and branches: those in the scope today;
 * - orders: placed in the period, whatever became of them;
 * - revenue: the money captured for those orders (paid online or cash collected: the rollup's
 *   revenue column) less the refunds of them that are completed (the money is back with the
 *   customer); a refund decided but not yet back (pending at the provider, failed, owed in cash at
 *   the branch) is still in revenue and shown as refundsDue (refundFigures);
 * - customers: registered customers (not the shared guest) with an order in the scope in the period;
 *   new when that is their only order in the scope up to the period's end, returning otherwise;
 * - by weekday × hour in Kuwait time, and by branch.
 * Read from the rollup (./rollup.ts) for the whole Kuwait days of the period, and from the orders for
 * the pieces of a day at its ends, so every figure equals the same count over the orders.
 */
export async function statisticOf(db: Db, scope: StatisticScope, period: Period): Promise<Statistic> {
  await refreshStatistics(db);
  const { days, pieces } = splitPeriod(period);
  const rows = sql.join([
    ...(days ? [sql`select ${DAILY_COLUMNS} from "order_daily_stats" d where ${placeOf(scope, 'd')}
      ${days.fromDay !== undefined ? sql`and d."day" >= ${days.fromDay}` : sql``}
      ${days.toDay !== undefined ? sql`and d."day" < ${days.toDay}` : sql``}`] : []),
    ...pieces.map((p) => dailyRowsOf(sql`"orders" o where ${placeOf(scope, 'o')} and ${inPeriod(sql`o."created_at"`, p)}`)),
  ], sql` union all `);
  const hourSums = sql.raw(HOUR_COLUMNS.map((c) => `coalesce(sum("${c}"), 0)::int`).join(', '));

  const [places, grouped, customers, refundRows, registeredCustomers] = await Promise.all([
    db.execute(sql`
      select
        (select count(*)::int from "companies" c where ${scope.kind === 'general' ? sql`true` : scope.kind === 'company'
          ? sql`c."id" = ${scope.companyId}` : sql`c."id" in (select "company_id" from "brands" b where ${brandsOf(scope, sql`b."id"`)})`}) as companies,
        (select count(*)::int from "brands" b where ${brandsOf(scope, sql`b."id"`)}) as brands,
        (select count(*)::int from "branches" r where ${brandsOf(scope, sql`r."brand_id"`)} and ${branchesOf(scope, sql`r."id"`)}) as branches`),
    // Totals, weekdays (each with its 24 hours) and branches in one pass over the days (grouping sets).
    db.execute(sql`
      with days as (${rows})
      select grouping((day + 4) % 7)::int as by_weekday, grouping("branch_id")::int as by_branch,
             ((day + 4) % 7)::int as weekday, "branch_id",
             coalesce(sum(orders), 0)::int as orders, coalesce(sum(revenue), 0)::text as revenue,
             array[${hourSums}] as hours
      from days
      group by grouping sets (((day + 4) % 7), ("branch_id"), ())`),
    scope.kind === 'branch' ? branchCustomerFigures(db, scope.branchId, period) : customerFigures(db, scope, period),
    refundFigures(db, scope, period),
    registeredCustomersOf(db, scope),
  ]);
  // Every branch of the scope, those without orders too, by revenue then name.
  const branchRows = await db.select({ id: branches.id, name: branches.name, brandId: brands.id, brandName: brands.name })
    .from(branches).innerJoin(brands, eq(brands.id, branches.brandId)).where(and(brandsOf(scope, sql`${branches.brandId}`), branchesOf(scope, sql`${branches.id}`)));

  type Group = { by_weekday: number; by_branch: number; weekday: number | null; branch_id: number | null; orders: number; revenue: string; hours: (number | null)[] };
  const groups = rowsOf(grouped) as Group[];
  // grouping() is 1 for a column left out of the set.
  const total = groups.find((g) => Number(g.by_weekday) === 1 && Number(g.by_branch) === 1);
  const perBranch = new Map(groups.filter((g) => Number(g.by_weekday) === 1 && Number(g.by_branch) === 0).map((g) => [Number(g.branch_id), g]));
  const cells = groups.filter((g) => Number(g.by_weekday) === 0)
    .flatMap((g) => g.hours.map((n, hour) => ({ weekday: Number(g.weekday), hour, orders: Number(n ?? 0) })))
    .filter((c) => c.orders > 0)
    .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  const refundsOf = new Map(refundRows.map((r) => [r.branchId, r]));
  const net = (captured: string | undefined, refunded: number) => filsToNumber(toFils(captured ?? '0') - toFils(refunded));
  const revenueByBranch = branchRows.map((b) => ({
    branchId: b.id, branchName: b.name, brandId: b.brandId, brandName: b.brandName,
    orders: Number(perBranch.get(b.id)?.orders ?? 0),
    revenue: net(perBranch.get(b.id)?.revenue, refundsOf.get(b.id)?.refunded ?? 0),
    refunded: refundsOf.get(b.id)?.refunded ?? 0, refundsDue: refundsOf.get(b.id)?.due ?? 0,
  })).sort((a, b) => b.revenue - a.revenue || a.branchName.localeCompare(b.branchName) || a.branchId - b.branchId);

  const p = rowsOf(places)[0] as { companies: number; brands: number; branches: number };
  const c = customers;
  return {
    companies: Number(p.companies), brands: Number(p.brands), branches: Number(p.branches),
    orders: Number(total?.orders ?? 0),
    revenue: net(total?.revenue, sumOf(refundRows.map((r) => r.refunded))),
    refunded: sumOf(refundRows.map((r) => r.refunded)), refundsDue: sumOf(refundRows.map((r) => r.due)),
    customers: c.newCustomers + c.returningCustomers, registeredCustomers, newCustomers: c.newCustomers, returningCustomers: c.returningCustomers,
    ordersByWeekdayHour: cells,
    revenueByBranch,
  };
}

const filsToNumber = (fils: number) => Number(filsToDecimal(fils));
const sumOf = (xs: number[]) => filsToNumber(xs.reduce((a, x) => a + toFils(x), 0));

/**
 * The refunds of the orders placed in the period in the scope, per branch: completed (`refunded`,
 * taken off revenue) and decided but not yet back (`due`: pending, failed, owed). Read from the
 * refunds themselves, not the rollup: a refund completes without the order changing (the refund
 * worker, a cash refund handed back), and refunds are few beside orders (each joins its order by key).
 */
async function refundFigures(db: Db, scope: StatisticScope, period: Period) {
  const rows = rowsOf<{ branch_id: number; refunded: string; due: string }>(await db.execute(sql`
    select o."branch_id",
           coalesce(sum(r."amount") filter (where r."status" = 'refunded'), 0)::text as refunded,
           coalesce(sum(r."amount") filter (where r."status" <> 'refunded'), 0)::text as due
    from "refunds" r join "orders" o on o."id" = r."order_id"
    where ${placeOf(scope, 'o')} and ${inPeriod(sql`o."created_at"`, period)}
    group by o."branch_id"`));
  return rows.map((r) => ({ branchId: Number(r.branch_id), refunded: Number(r.refunded), due: Number(r.due) }));
}

/**
 * Registered customers (not the shared guest) with an order in the scope in the period, new or
 * returning, from customer_brand_orders: a customer's first two and last orders at each brand of the
 * scope say whether they ordered in the period and whether that is their only order up to its end.
 * Only a customer whose known orders all fall outside a closed period, around it, is looked up in
 * the orders (one index probe each).
 */
async function customerFigures(db: Db, scope: StatisticScope, period: Period) {
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const within = (column: SQL) => inPeriod(column, period);
  const active = !period.to
    ? (period.from ? sql`p.last_at >= ${at(period.from)}` : sql`true`)
    // One index probe (orders_user_created_idx) per such customer: a scalar subquery ordered by the
    // index, not exists() or a bare limit, which the planner answered by scanning the orders (measured).
    : sql`${period.from ? sql`p.last_at >= ${at(period.from)} and` : sql``} p.first_at < ${at(period.to)} and (p.seen_within or (
        select 1 from "orders" o where o."user_id" = p.user_id and ${brandsOf(scope, sql`o."brand_id"`)} and ${within(sql`o."created_at"`)}
        order by o."user_id", o."created_at" limit 1) is not null)`;
  const isNew = period.to ? sql`p.second_at is null or p.second_at >= ${at(period.to)}` : sql`p.second_at is null`;
  const res = await db.execute(sql`
    with per_user as (
      select k."user_id" as user_id, min(k."first_at") as first_at, max(k."last_at") as last_at,
             (select x from unnest(array_agg(k."first_at") || array_agg(k."second_at")) x where x is not null order by x offset 1 limit 1) as second_at,
             coalesce(bool_or(${within(sql`k."first_at"`)} or ${within(sql`k."second_at"`)} or ${within(sql`k."last_at"`)}), false) as seen_within
      from "customer_brand_orders" k join "users" u on u."id" = k."user_id"
      where ${brandsOf(scope, sql`k."brand_id"`)} and u."is_guest" = false and u."role" = 'CUSTOMER'
      group by k."user_id"
    )
    select (count(*) filter (where ${isNew}))::int as new_customers, (count(*) filter (where not (${isNew})))::int as returning_customers
    from per_user p where ${active}`);
  const row = rowsOf<{ new_customers: number; returning_customers: number }>(res)[0];
  return { newCustomers: Number(row.new_customers), returningCustomers: Number(row.returning_customers) };
}

/**
 * New and returning customers of one branch (the dashboard's branch filter): customer_brand_orders
 * keeps them per brand, so a branch's are read from its orders (orders_branch_created_idx), with
 * the same rule: registered customers who ordered there in the period, new when that is their only
 * order there up to the period's end.
 */
async function branchCustomerFigures(db: Db, branchId: number, period: Period) {
  const res = await db.execute(sql`
    with per_user as (
      select o."user_id", bool_or(${inPeriod(sql`o."created_at"`, period)}) as seen_within,
             count(*) filter (where ${period.to ? sql`o."created_at" < ${period.to.toISOString()}::timestamptz` : sql`true`}) as up_to_end
      from "orders" o join "users" u on u."id" = o."user_id"
      where o."branch_id" = ${branchId} and u."is_guest" = false and u."role" = 'CUSTOMER'
      group by o."user_id"
    )
    select (count(*) filter (where seen_within and up_to_end = 1))::int as new_customers,
           (count(*) filter (where seen_within and up_to_end > 1))::int as returning_customers
    from per_user`);
  const row = rowsOf<{ new_customers: number; returning_customers: number }>(res)[0];
  return { newCustomers: Number(row.new_customers), returningCustomers: Number(row.returning_customers) };
}
