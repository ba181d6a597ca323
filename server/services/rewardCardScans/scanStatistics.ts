import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { BRANCH_TIME_ZONE } from '../../../domain/schedule';
import { dayKey } from '../../../domain/time';
import { inPeriod, utcOffsetOf } from '../statistic/statistics';
import { dateOfDay, kuwaitDaySql, refreshStatistics } from '../statistic/rollup';
import type { Period } from '../../http/period';

/**
 * Reward card scan figures (SPEC.md 3 "Reward-scan metrics": scanned and not scanned, male and
 * female, the age bands 18-23, 24-30, 31-45 and 46+, new and returned, reward and redemption scans).
 * The demographics come from the customer's profile (users.gender, users.birth_date); the
 * definitions are in docs/decisions.md "Reward card scans".
 */

/** The age bands of SPEC.md 3, then those the spec leaves out (a minor, a profile without a birth date), so the bands add up. */
export const AGE_BANDS = ['18-23', '24-30', '31-45', '46+', 'Under 18', 'Not given'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
export type Gender = 'male' | 'female';

/**
 * A profile's gender as the statistics count it. The profile field is free text (the shop and the
 * console both send it), so the usual spellings in English and Arabic are read; anything else is "not given".
 */
export const genderOf = (gender: SQL) => sql`(case
  when lower(btrim(${gender})) in ('m', 'male', 'ذكر') then 'male'
  when lower(btrim(${gender})) in ('f', 'female', 'أنثى') then 'female' end)`;

/**
 * The age band of a birth date ('YYYY-MM-DD' text) on a day given as its year and 'MM-DD'. Worked
 * out on the text, never cast to a date: a stored '1990-02-31' passes the profile's pattern and
 * must not turn a statistic into a 500.
 */
export function ageBandOf(birthDate: SQL, year: SQL, monthDay: SQL): SQL {
  const age = sql`(${year} - substr(${birthDate}, 1, 4)::int - (case when substr(${birthDate}, 6, 5) > ${monthDay} then 1 else 0 end))`;
  return sql`(case
    when ${birthDate} is null or ${birthDate} !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then 'Not given'
    when ${age} < 18 then 'Under 18'
    when ${age} <= 23 then '18-23'
    when ${age} <= 30 then '24-30'
    when ${age} <= 45 then '31-45'
    else '46+' end)`;
}

/** Kuwait's offset from UTC, for grouping by the branches' calendar day (see statistics.ts utcOffsetOf). */
export const kuwaitOffset = () => sql`${utcOffsetOf(BRANCH_TIME_ZONE)}::interval`;

/** The Kuwait calendar day a period is judged on: its last moment (the end is exclusive), or now when it is open. */
export function referenceDay(period: Period, now = new Date()): { year: number; monthDay: string } {
  const at = period.to ? new Date(period.to.getTime() - 1) : now;
  const day = dayKey(at);
  return { year: Number(day.slice(0, 4)), monthDay: day.slice(5) };
}

/**
 * The brand's customers by the period's end: registered customers (never the shared guest) whose
 * account existed then and who have a wallet, an order or a scan in the brand. The population that
 * "not scanned" and the profile statistics count. Whether a customer has ordered at the brand is
 * read from the statistics rollup's customer_brand_orders (the caller refreshes it first): asked of
 * the orders, the planner hashed every order of the brand for each call.
 */
function brandCustomers(brandId: number, period: Period): SQL {
  return sql`select u."id" from "users" u
    where u."role" = 'CUSTOMER' and u."is_guest" = false
      ${period.to ? sql`and u."created_at" < ${period.to.toISOString()}::timestamptz` : sql``}
      and (exists (select 1 from "customer_wallets" w where w."user_id" = u."id" and w."brand_id" = ${brandId})
        or exists (select 1 from "customer_brand_orders" k where k."user_id" = u."id" and k."brand_id" = ${brandId})
        or exists (select 1 from "reward_card_scans" s where s."user_id" = u."id" and s."brand_id" = ${brandId}))`;
}

export interface Demographics {
  male: number;
  female: number;
  genderNotGiven: number;
  ageBands: { band: AgeBand; customers: number }[];
}

const demographicColumns = (gender: SQL, band: SQL) => sql`
  count(*) filter (where ${gender} = 'male')::int as male,
  count(*) filter (where ${gender} = 'female')::int as female,
  count(*) filter (where ${gender} is null)::int as gender_not_given,
  ${sql.join(AGE_BANDS.map((b, i) => sql`count(*) filter (where ${band} = ${b})::int as ${sql.raw(`band_${i}`)}`), sql`, `)}`;

function demographicsOf(row: Record<string, unknown>): Demographics {
  return {
    male: Number(row.male), female: Number(row.female), genderNotGiven: Number(row.gender_not_given),
    ageBands: AGE_BANDS.map((band, i) => ({ band, customers: Number(row[`band_${i}`]) })),
  };
}

export interface ScanStatistic extends Demographics {
  brandId: number;
  /** scanned + notScanned. */
  customers: number;
  /** Customers with at least one scan in the period; the demographics count these. */
  scanned: number;
  /** The brand's customers (see brandCustomers) without a scan in the period. */
  notScanned: number;
  /** Scanning customers whose scan in the period is their only one at the brand so far. */
  newCustomers: number;
  /** Scanning customers with more than one scan at the brand up to the period's end. */
  returnedCustomers: number;
  scans: number;
  rewardScans: number;
  redemptionScans: number;
  /** Days of the period with scans, in Kuwait time, oldest first. */
  byDate: { date: string; scans: number; rewardScans: number; redemptionScans: number; customers: number }[];
}

/** One brand's scan statistic over a period (either end open). */
export async function scanStatisticOf(db: Db, brandId: number, period: Period): Promise<ScanStatistic> {
  await refreshStatistics(db);
  const inIt = inPeriod(sql`s."created_at"`, period);
  const upToEnd = period.to ? sql`s."created_at" < ${period.to.toISOString()}::timestamptz` : sql`true`;
  const day = referenceDay(period);
  const gender = genderOf(sql`u."gender"`);
  const band = ageBandOf(sql`u."birth_date"`, sql`${day.year}::int`, sql`${day.monthDay}::text`);
  // Each scanning customer's scans at the brand up to the period's end. Without a start, every
  // customer with a scan up to the end scanned in the period: one pass over the scans, not two.
  const scanners = period.from
    ? sql`and s."user_id" in (select s."user_id" from "reward_card_scans" s where s."brand_id" = ${brandId} and ${inIt})`
    : sql``;
  const [people, days, population] = await Promise.all([
    db.execute(sql`
      with history as (
        select s."user_id", count(*)::int as n from "reward_card_scans" s
        where s."brand_id" = ${brandId} and ${upToEnd} ${scanners}
        group by s."user_id"
      )
      select count(*)::int as scanned,
             count(*) filter (where h.n = 1)::int as new_customers,
             count(*) filter (where h.n > 1)::int as returned_customers,
             ${demographicColumns(gender, band)}
      from history h join "users" u on u."id" = h."user_id"`),
    // By Kuwait day (an int, formatted here: to_char on every scan cost more than the grouping);
    // the period's totals are the sum of its days.
    db.execute(sql`
      select ${kuwaitDaySql(sql`s."created_at"`)} as day,
             count(*)::int as scans,
             count(*) filter (where s."scan_type" = 'reward')::int as reward_scans,
             count(*) filter (where s."scan_type" = 'redemption')::int as redemption_scans,
             count(distinct s."user_id")::int as customers
      from "reward_card_scans" s where s."brand_id" = ${brandId} and ${inIt}
      group by 1 order by 1`),
    db.execute(sql`
      select count(*)::int as not_scanned from (${brandCustomers(brandId, period)}) c
      where c."id" not in (select s."user_id" from "reward_card_scans" s where s."brand_id" = ${brandId} and ${inIt})`),
  ]);
  const p = rowsOf<Record<string, unknown>>(people)[0];
  const byDate = rowsOf<Record<string, unknown>>(days).map((d) => ({
    date: dateOfDay(Number(d.day)), scans: Number(d.scans), rewardScans: Number(d.reward_scans), redemptionScans: Number(d.redemption_scans), customers: Number(d.customers),
  }));
  const sum = (f: (d: (typeof byDate)[number]) => number) => byDate.reduce((a, d) => a + f(d), 0);
  const scanned = Number(p.scanned);
  const notScanned = Number(rowsOf<{ not_scanned: number }>(population)[0].not_scanned);
  return {
    brandId,
    customers: scanned + notScanned, scanned, notScanned,
    newCustomers: Number(p.new_customers), returnedCustomers: Number(p.returned_customers),
    ...demographicsOf(p),
    scans: sum((d) => d.scans), rewardScans: sum((d) => d.rewardScans), redemptionScans: sum((d) => d.redemptionScans),
    byDate,
  };
}

export interface ProfileStatistic extends Demographics { brandId: number; customers: number }

/** The profiles of a brand's customers today: how many, by gender and by age band (age today, Kuwait calendar). */
export async function profileStatisticOf(db: Db, brandId: number): Promise<ProfileStatistic> {
  await refreshStatistics(db);
  const day = referenceDay({});
  const gender = genderOf(sql`u."gender"`);
  const band = ageBandOf(sql`u."birth_date"`, sql`${day.year}::int`, sql`${day.monthDay}::text`);
  const res = await db.execute(sql`
    select count(*)::int as customers, ${demographicColumns(gender, band)}
    from "users" u where u."id" in (${brandCustomers(brandId, {})})`);
  const row = rowsOf<Record<string, unknown>>(res)[0];
  return { brandId, customers: Number(row.customers), ...demographicsOf(row) };
}

export interface BranchScans { branchId: number; branchName: string; brandId: number; brandName: string; scans: number; rewardScans: number; redemptionScans: number; customers: number }

/**
 * Scans per branch over a period, for every branch the `branchWhere` fragment selects (written on
 * the "branches" table, e.g. server/orders/scope.ts branchScope) (those without
 * scans with 0), most scans first; with the totals of all of them.
 */
export async function scansByBranchOf(db: Db, branchWhere: SQL, period: Period) {
  const inIt = inPeriod(sql`s."created_at"`, period);
  const res = await db.execute(sql`
    select "branches"."id" as branch_id, "branches"."name" as branch_name, b."id" as brand_id, b."name" as brand_name,
           count(s."id")::int as scans,
           count(s."id") filter (where s."scan_type" = 'reward')::int as reward_scans,
           count(s."id") filter (where s."scan_type" = 'redemption')::int as redemption_scans,
           count(distinct s."user_id")::int as customers
    from "branches" join "brands" b on b."id" = "branches"."brand_id"
    left join "reward_card_scans" s on s."branch_id" = "branches"."id" and ${inIt}
    where ${branchWhere}
    group by "branches"."id", "branches"."name", b."id", b."name"
    order by 5 desc, "branches"."name", "branches"."id"`);
  const totals = await db.execute(sql`
    select count(*)::int as scans,
           count(*) filter (where s."scan_type" = 'reward')::int as reward_scans,
           count(*) filter (where s."scan_type" = 'redemption')::int as redemption_scans,
           count(distinct s."user_id")::int as customers
    from "reward_card_scans" s join "branches" on "branches"."id" = s."branch_id"
    where ${branchWhere} and ${inIt}`);
  const t = rowsOf<Record<string, unknown>>(totals)[0];
  return {
    scans: Number(t.scans), rewardScans: Number(t.reward_scans), redemptionScans: Number(t.redemption_scans), customers: Number(t.customers),
    byBranch: rowsOf<Record<string, unknown>>(res).map((r): BranchScans => ({
      branchId: Number(r.branch_id), branchName: String(r.branch_name), brandId: Number(r.brand_id), brandName: String(r.brand_name),
      scans: Number(r.scans), rewardScans: Number(r.reward_scans), redemptionScans: Number(r.redemption_scans), customers: Number(r.customers),
    })),
  };
}
