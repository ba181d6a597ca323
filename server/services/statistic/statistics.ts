import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { BRANCH_TIME_ZONE } from '../../../domain/schedule';

/** Which part of the organisation the figures cover (SPEC.md 6: general, company or brand). */
export type StatisticScope = { kind: 'general' } | { kind: 'company'; companyId: number } | { kind: 'brand'; brandId: number };

/** Orders placed in [from, to) — either end open. */
export interface Period { from?: Date; to?: Date }

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

/** The brands of the scope, as a where fragment on a brand id column. */
function brandsOf(scope: StatisticScope, brandId: SQL): SQL {
  switch (scope.kind) {
    case 'general': return sql`true`;
    case 'company': return sql`${brandId} in (select "id" from "brands" where "company_id" = ${scope.companyId})`;
    case 'brand': return sql`${brandId} = ${scope.brandId}`;
  }
}

const inPeriod = (column: SQL, period: Period) => sql.join([
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
  const tz = BRANCH_TIME_ZONE;

  const [places, totals, customers, cells, byBranch] = await Promise.all([
    db.execute(sql`
      select
        (select count(*)::int from "companies" c where ${scope.kind === 'general' ? sql`true` : scope.kind === 'company'
          ? sql`c."id" = ${scope.companyId}` : sql`c."id" in (select "company_id" from "brands" where "id" = ${scope.brandId})`}) as companies,
        (select count(*)::int from "brands" b where ${brandsOf(scope, sql`b."id"`)}) as brands,
        (select count(*)::int from "branches" r where ${brandsOf(scope, sql`r."brand_id"`)}) as branches`),
    db.execute(sql`
      select count(*)::int as orders, coalesce(sum(case when ${kept} then o."total" else 0 end), 0)::text as revenue
      from "orders" o where ${orderBrand} and ${placed}`),
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
    db.execute(sql`
      select extract(dow from o."created_at" at time zone ${tz})::int as weekday,
             extract(hour from o."created_at" at time zone ${tz})::int as hour,
             count(*)::int as orders
      from "orders" o where ${orderBrand} and ${placed}
      group by 1, 2 order by 1, 2`),
    db.execute(sql`
      select r."id" as branch_id, r."name" as branch_name, b."id" as brand_id, b."name" as brand_name,
             count(o."id")::int as orders,
             coalesce(sum(case when ${kept} then o."total" else 0 end), 0)::text as revenue
      from "branches" r join "brands" b on b."id" = r."brand_id"
      left join "orders" o on o."branch_id" = r."id" and ${placed}
      where ${brandsOf(scope, sql`r."brand_id"`)}
      group by r."id", r."name", b."id", b."name"
      order by sum(case when ${kept} then o."total" else 0 end) desc nulls last, r."name", r."id"`),
  ]);

  const p = rowsOf(places)[0] as { companies: number; brands: number; branches: number };
  const t = rowsOf(totals)[0] as { orders: number; revenue: string };
  const c = rowsOf(customers)[0] as { customers: number; new_customers: number; returning_customers: number };
  return {
    companies: Number(p.companies), brands: Number(p.brands), branches: Number(p.branches),
    orders: Number(t.orders), revenue: Number(t.revenue),
    customers: Number(c.customers), newCustomers: Number(c.new_customers), returningCustomers: Number(c.returning_customers),
    ordersByWeekdayHour: (rowsOf(cells) as { weekday: number; hour: number; orders: number }[])
      .map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), orders: Number(r.orders) })),
    revenueByBranch: (rowsOf(byBranch) as { branch_id: number; branch_name: string; brand_id: number; brand_name: string; orders: number; revenue: string }[])
      .map((r) => ({ branchId: Number(r.branch_id), branchName: r.branch_name, brandId: Number(r.brand_id), brandName: r.brand_name, orders: Number(r.orders), revenue: Number(r.revenue) })),
  };
}
