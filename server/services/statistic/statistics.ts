import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { branches, brands } from '../../db/schema';
import { BRANCH_TIME_ZONE } from '../../../domain/schedule';
import type { Period } from '../../http/period';

/** Which part of the organisation the figures cover (SPEC.md 6: general, company or brand). */
export type StatisticScope = { kind: 'general' } | { kind: 'company'; companyId: number } | { kind: 'brand'; brandId: number };


export interface Statistic {
  companies: number;
  brands: number;
  branches: number;
  orders: number;
  customers: number;
  revenue: number;
  newCustomers: number;
  returningCustomers: number;
  /** Non-empty cells only; weekday 0 = Sunday, hour 0–23, both in Kuwait time. */
  ordersByWeekdayHour: { weekday: number; hour: number; orders: number }[];
  /** Every branch in scope, with no orders too, by revenue then name. */
  revenueByBranch: { branchId: number; branchName: string; brandId: number; brandName: string; orders: number; revenue: number }[];
}

/**
 * A time zone's offset from UTC now, as an interval ('03:00'). The weekday × hour grouping converts
 * by this offset, not by the zone's name: PGlite looks the zone up for every row (1.2 s over 100,000
 * orders, against 0.2 s by offset). Right for Kuwait, which keeps UTC+3 all year (no daylight saving).
 */
export function utcOffsetOf(timeZone: string, at = new Date()): string {
  const wall = (zone: string) => new Date(at.toLocaleString('en-US', { timeZone: zone })).getTime();
  const minutes = Math.round((wall(timeZone) - wall('UTC')) / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : ''}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The brands of the scope, as a where fragment on a brand id column. */
function brandsOf(scope: StatisticScope, brandId: SQL): SQL {
  switch (scope.kind) {
    case 'general': return sql`true`;
    case 'company': return sql`${brandId} in (select "id" from "brands" where "company_id" = ${scope.companyId})`;
    case 'brand': return sql`${brandId} = ${scope.brandId}`;
  }
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
 * - revenue: the totals of those orders whose money was received and kept (paid, refund not approved);
 * - customers: registered customers (not the shared guest) with an order in the scope in the period;
 *   new when that is their only order in the scope up to the period's end, returning otherwise;
 * - by weekday × hour in Kuwait time, and by branch.
 */
export async function statisticOf(db: Db, scope: StatisticScope, period: Period): Promise<Statistic> {
  const orderBrand = brandsOf(scope, sql`o."brand_id"`);
  const placed = inPeriod(sql`o."created_at"`, period);
  const upToEnd = period.to ? sql`o."created_at" < ${period.to.toISOString()}::timestamptz` : sql`true`;
  const kept = sql`o."payment" = 'paid' and o."refund" <> 'approved'`;
  const tz = sql`${utcOffsetOf(BRANCH_TIME_ZONE)}::interval`;

  // One pass over the scope's orders gives the totals, the weekday × hour cells and the per-branch
  // figures at once (grouping sets): at 100,000 orders the scan, not the grouping, is the cost.
  const [places, grouped, customers] = await Promise.all([
    db.execute(sql`
      select
        (select count(*)::int from "companies" c where ${scope.kind === 'general' ? sql`true` : scope.kind === 'company'
          ? sql`c."id" = ${scope.companyId}` : sql`c."id" in (select "company_id" from "brands" where "id" = ${scope.brandId})`}) as companies,
        (select count(*)::int from "brands" b where ${brandsOf(scope, sql`b."id"`)}) as brands,
        (select count(*)::int from "branches" r where ${brandsOf(scope, sql`r."brand_id"`)}) as branches`),
    db.execute(sql`
      with placed as (
        select o."branch_id", o."created_at" at time zone ${tz} as local,
               case when ${kept} then o."total" else 0 end as kept_total
        from "orders" o where ${orderBrand} and ${placed}
      )
      select grouping(extract(dow from local), extract(hour from local))::int as by_cell,
             grouping("branch_id")::int as by_branch,
             extract(dow from local)::int as weekday, extract(hour from local)::int as hour, "branch_id",
             count(*)::int as orders, coalesce(sum(kept_total), 0)::text as revenue
      from placed
      group by grouping sets ((extract(dow from local), extract(hour from local)), ("branch_id"), ())`),
    db.execute(sql`
      with active as (
        select distinct o."user_id" from "orders" o join "users" u on u."id" = o."user_id"
        where ${orderBrand} and ${placed} and u."is_guest" = false and u."role" = 'CUSTOMER'
      ), history as (
        select o."user_id", count(*)::int as n from "orders" o
        where ${orderBrand} and ${upToEnd} and o."user_id" in (select "user_id" from active)
        group by o."user_id"
      )
      select count(*)::int as customers,
             count(*) filter (where n = 1)::int as new_customers,
             count(*) filter (where n > 1)::int as returning_customers
      from history`),
  ]);
  // Every branch of the scope, those without orders too, by revenue then name.
  const branchRows = await db.select({ id: branches.id, name: branches.name, brandId: brands.id, brandName: brands.name })
    .from(branches).innerJoin(brands, eq(brands.id, branches.brandId)).where(brandsOf(scope, sql`${branches.brandId}`));

  type Group = { by_cell: number; by_branch: number; weekday: number | null; hour: number | null; branch_id: number | null; orders: number; revenue: string };
  const groups = rowsOf(grouped) as Group[];
  // grouping() is 1 for a column left out of the set: cells leave out the branch, branches the cell.
  const total = groups.find((g) => Number(g.by_cell) === 3 && Number(g.by_branch) === 1);
  const perBranch = new Map(groups.filter((g) => Number(g.by_cell) === 3 && Number(g.by_branch) === 0).map((g) => [Number(g.branch_id), g]));
  const cells = groups.filter((g) => Number(g.by_cell) === 0)
    .map((g) => ({ weekday: Number(g.weekday), hour: Number(g.hour), orders: Number(g.orders) }))
    .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  const revenueByBranch = branchRows.map((b) => ({
    branchId: b.id, branchName: b.name, brandId: b.brandId, brandName: b.brandName,
    orders: Number(perBranch.get(b.id)?.orders ?? 0), revenue: Number(perBranch.get(b.id)?.revenue ?? 0),
  })).sort((a, b) => b.revenue - a.revenue || a.branchName.localeCompare(b.branchName) || a.branchId - b.branchId);

  const p = rowsOf(places)[0] as { companies: number; brands: number; branches: number };
  const c = rowsOf(customers)[0] as { customers: number; new_customers: number; returning_customers: number };
  return {
    companies: Number(p.companies), brands: Number(p.brands), branches: Number(p.branches),
    orders: Number(total?.orders ?? 0), revenue: Number(total?.revenue ?? 0),
    customers: Number(c.customers), newCustomers: Number(c.new_customers), returningCustomers: Number(c.returning_customers),
    ordersByWeekdayHour: cells,
    revenueByBranch,
  };
}
