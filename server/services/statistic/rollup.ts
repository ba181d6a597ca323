import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { ACCEPT_COLUMNS, ACCEPT_SECONDS_BOUNDS, HOUR_COLUMNS, READY_COLUMNS, READY_SECONDS_BOUNDS, statisticsWatermark } from '../../db/schema';
import { BRANCH_TIME_ZONE } from '../../../domain/schedule';
import { NOT_ACCEPTED_IN_TIME } from '../../../machines/orderLifecycle';
import type { Period } from '../../http/period';

/**
 * The statistics rollup (docs/decisions.md "Statistics at scale"): the orders of each branch on each
 * Kuwait calendar day summed in order_daily_stats, and each customer's first two and last orders per
 * brand in customer_brand_orders. Order intake never writes them: each statistics call first reads
 * what changed since the last call (new order ids, and orders the lifecycle moved, by update time)
 * and recomputes the days those orders fall on from the orders themselves, so every figure equals a
 * direct query over the orders.
 */

/**
 * A time zone's offset from UTC now, as an interval ('03:00'). Days and hours convert by this
 * offset, not by the zone's name: PGlite looks the zone up for every row (1.2 s over 100,000
 * orders, against 0.2 s by offset). Right for Kuwait, which keeps UTC+3 all year (no daylight saving).
 */
export function utcOffsetOf(timeZone: string, at = new Date()): string {
  const minutes = utcOffsetMinutes(timeZone, at);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : ''}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function utcOffsetMinutes(timeZone: string, at = new Date()): number {
  const wall = (zone: string) => new Date(at.toLocaleString('en-US', { timeZone: zone })).getTime();
  return Math.round((wall(timeZone) - wall('UTC')) / 60_000);
}

const DAY_S = 86_400;
/** Kuwait's offset in seconds: the rollup's days and hours are Kuwait's. */
const offsetSeconds = () => utcOffsetMinutes(BRANCH_TIME_ZONE) * 60;

/** The Kuwait calendar day of a timestamptz column, as days since 1970-01-01 (an int: cheaper to group by than a formatted date). */
export const kuwaitDaySql = (column: SQL) =>
  sql`floor((extract(epoch from ${column}) + ${sql.raw(String(offsetSeconds()))}) / ${sql.raw(String(DAY_S))})::int`;
/** A rollup day as the calendar date it is ('YYYY-MM-DD'). */
export const dateOfDay = (day: number) => new Date(day * DAY_S * 1000).toISOString().slice(0, 10);

/** The Kuwait calendar day of a moment, as days since 1970-01-01. */
export const kuwaitDayOf = (at: Date) => Math.floor((at.getTime() / 1000 + offsetSeconds()) / DAY_S);
/** The moment a Kuwait calendar day begins. */
export const kuwaitDayStart = (day: number) => new Date((day * DAY_S - offsetSeconds()) * 1000);

/**
 * A period cut into the whole Kuwait days the rollup answers (`fromDay` inclusive, `toDay`
 * exclusive, either open) and the pieces of a day at its ends, which are read from the orders.
 */
export function splitPeriod(period: Period): { days: { fromDay?: number; toDay?: number } | null; pieces: Period[] } {
  const fromDay = period.from
    ? kuwaitDayOf(period.from) + (kuwaitDayStart(kuwaitDayOf(period.from)).getTime() === period.from.getTime() ? 0 : 1)
    : undefined;
  const toDay = period.to ? kuwaitDayOf(period.to) : undefined;
  if (fromDay !== undefined && toDay !== undefined && fromDay >= toDay) return { days: null, pieces: [period] };
  const pieces: Period[] = [];
  if (period.from && fromDay !== undefined && kuwaitDayStart(fromDay) > period.from) pieces.push({ from: period.from, to: kuwaitDayStart(fromDay) });
  if (period.to && toDay !== undefined && kuwaitDayStart(toDay) < period.to) pieces.push({ from: kuwaitDayStart(toDay), to: period.to });
  return { days: { fromDay, toDay }, pieces };
}

/** order_daily_stats' columns, in the order dailyRowsOf answers them. */
export const DAILY_COLUMNS = sql.raw(['branch_id', 'day', 'brand_id', 'orders', 'revenue', ...HOUR_COLUMNS, 'accepted', 'rejected',
  'not_accepted_in_time', 'no_shows', 'refunded', 'refunded_amount'].map((c) => `"${c}"`).join(', '));

/**
 * The rollup's rows (DAILY_COLUMNS, in order) computed from the orders that `source`
 * yields as `o`. The one definition of every summed figure: the refresh stores these rows, and a
 * statistics call computes the same rows on the fly for the pieces of a day at a period's ends.
 */
export function dailyRowsOf(source: SQL): SQL {
  const off = offsetSeconds();
  const hours = sql.raw(HOUR_COLUMNS.map((c, h) => `(count(*) filter (where x."hour" = ${h}))::int as "${c}"`).join(', '));
  return sql`
    select x."branch_id", x."day", x."brand_id", count(*)::int as orders,
      coalesce(sum(x."total") filter (where x."payment" = 'paid'), 0) as revenue,
      ${hours},
      count(x."accepted_at")::int as accepted,
      (count(*) filter (where x."status" = 'rejected' and x."refund" <> 'approved'))::int as rejected,
      (count(*) filter (where x."status" = 'rejected' and x."status_reason" = ${NOT_ACCEPTED_IN_TIME}))::int as not_accepted_in_time,
      (count(*) filter (where x."arrival" = 'noShow'))::int as no_shows,
      (count(*) filter (where x."refund" = 'approved'))::int as refunded,
      coalesce(sum(x."total") filter (where x."refund" = 'approved'), 0) as refunded_amount
    from (
      select o."branch_id", o."brand_id", o."total", o."payment", o."refund", o."status", o."status_reason", o."arrival", o."accepted_at",
             floor((extract(epoch from o."created_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int as day,
             floor(mod(extract(epoch from o."created_at") + ${sql.raw(String(off))}, ${sql.raw(String(DAY_S))}) / 3600)::int as hour
      from ${source}
    ) x
    group by x."branch_id", x."day", x."brand_id"`;
}

/**
 * The time to accept and to ready of an order `o`, in seconds (the expressions the partial indexes hold).
 * The time to accept counts from the moment the kitchen got the order: its fire time for an order
 * for later (fired_at, issue 25), else its placement.
 */
export const ACCEPT_SECONDS = sql`extract(epoch from (o."accepted_at" - coalesce(o."fired_at", o."created_at")))`;
export const READY_SECONDS = sql`extract(epoch from (o."ready_at" - o."accepted_at"))`;
export const HAS_ACCEPT = sql`o."accepted_at" is not null`;
export const HAS_READY = sql`o."ready_at" is not null and o."accepted_at" is not null`;
const bounds = (xs: number[]) => sql.raw(`array[${xs.join(',')}]::numeric[]`);

/** order_daily_times' columns, in the order dailyTimesOf answers them. */
export const TIMES_COLUMNS = sql.raw(['branch_id', 'day', 'brand_id', ...ACCEPT_COLUMNS, ...READY_COLUMNS].map((c) => `"${c}"`).join(', '));

/**
 * The histograms of the time to accept and to ready (order_daily_times' rows) of the orders that
 * `source` yields as `o`: one row per branch and Kuwait day with orders, like dailyRowsOf. Bucket i
 * counts the times in [BOUNDS[i-1], BOUNDS[i]) (width_bucket, the same comparison the second pass of
 * a percentile reads the orders by).
 */
export function dailyTimesOf(source: SQL): SQL {
  const off = offsetSeconds();
  const buckets = (columns: string[], at: string) => columns.map((c, i) => `(count(*) filter (where x."${at}" = ${i}))::int as "${c}"`).join(', ');
  return sql`
    select x."branch_id", x."day", x."brand_id", ${sql.raw(buckets(ACCEPT_COLUMNS, 'ab'))}, ${sql.raw(buckets(READY_COLUMNS, 'rb'))}
    from (
      select o."branch_id", o."brand_id",
             floor((extract(epoch from o."created_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int as day,
             ${ACCEPT_BUCKET} as ab, ${READY_BUCKET} as rb
      from ${source}
    ) x
    group by x."branch_id", x."day", x."brand_id"`;
}

/** The histogram bucket of an order `o`'s time to accept (to ready), null when it has none: the index of its column. */
const ACCEPT_BUCKET = sql`case when ${HAS_ACCEPT} then width_bucket(${ACCEPT_SECONDS}, ${bounds(ACCEPT_SECONDS_BOUNDS)}) end`;
const READY_BUCKET = sql`case when ${HAS_READY} then width_bucket(${READY_SECONDS}, ${bounds(READY_SECONDS_BOUNDS)}) end`;

/**
 * The same histograms as dailyTimesOf, as rows (branch, kind 'accept' or 'ready', bucket, count)
 * over all the orders `source` yields as `o`: the few non-empty buckets of a piece of a day, without
 * the 133 filtered counts per row that a few hundred orders do not need.
 */
export function timesBucketsOf(source: SQL): SQL {
  return sql`
    select x."branch_id", k."kind", k."bucket", count(*)::int as n
    from (select o."branch_id", ${ACCEPT_BUCKET} as ab, ${READY_BUCKET} as rb from ${source}) x
    cross join lateral (values ('accept', x."ab"), ('ready', x."rb")) k("kind", "bucket")
    where k."bucket" is not null
    group by 1, 2, 3`;
}

/** The first day of the Kuwait calendar month of a rollup day (both as days since 1970-01-01). */
export function monthOf(day: number): number {
  const d = new Date(day * DAY_S * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / (DAY_S * 1000);
}
/** The first day of the next month. */
export function nextMonthOf(day: number): number {
  const d = new Date(day * DAY_S * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / (DAY_S * 1000);
}
const monthOfSql = (day: SQL) => sql`(date_trunc('month', (date '1970-01-01' + ${day})::timestamp)::date - date '1970-01-01')`;

/** The quality figures order_monthly_quality sums (from order_daily_stats, then the histograms). */
const QUALITY_COUNTS = ['orders', 'accepted', 'rejected', 'not_accepted_in_time', 'no_shows', 'refunded', 'refunded_amount'];
export const MONTHLY_COLUMNS = sql.raw(['branch_id', 'month', 'brand_id', ...QUALITY_COUNTS, ...ACCEPT_COLUMNS, ...READY_COLUMNS].map((c) => `"${c}"`).join(', '));

/** order_monthly_quality's rows: the sums of the daily rows `where` picks (`s` order_daily_stats, `t` order_daily_times). */
function monthlyRowsOf(from: SQL): SQL {
  const sums = [...QUALITY_COUNTS.map((c) => `sum(s."${c}")${c === 'refunded_amount' ? '' : '::int'}`),
    ...[...ACCEPT_COLUMNS, ...READY_COLUMNS].map((c) => `coalesce(sum(t."${c}"), 0)::int`)].join(', ');
  return sql`
    select s."branch_id", ${monthOfSql(sql`s."day"`)} as month, s."brand_id", ${sql.raw(sums)}
    from ${from}
    group by s."branch_id", 2, s."brand_id"`;
}

/** The day payment_daily_stats gives a paid order without a payment time (no period with an end holds it). */
export const NO_PAID_DAY = -1_000_000;

/** payment_daily_stats' columns, in the order paymentRowsOf answers them. */
export const PAYMENT_COLUMNS = sql.raw(['branch_id', 'day', 'brand_id', 'payment_system_id', 'refund', 'payments', 'amount'].map((c) => `"${c}"`).join(', '));

/**
 * Payment History's totals (payment_daily_stats' rows) of the orders `source` yields as `o`: the
 * paid ones, per branch, Kuwait day of payment, method and refund state. The one definition of a
 * payment's count and amount: the refresh stores these rows, and Payment History computes the same
 * rows for the pieces of a day at its period's ends.
 */
export function paymentRowsOf(source: SQL): SQL {
  const off = offsetSeconds();
  return sql`
    select o."branch_id",
           coalesce(floor((extract(epoch from o."paid_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int, ${NO_PAID_DAY}) as day,
           o."brand_id", o."payment_system_id", o."refund", count(*)::int as payments, coalesce(sum(o."total"), 0) as amount
    from ${source}
    where o."payment" = 'paid'
    group by 1, 2, 3, 4, 5`;
}

/** Orders `o` whose id is over `afterId` or one of `ids`. */
const newOrders = (afterId: number, ids: number[]) =>
  sql`(o."id" > ${afterId}${ids.length ? sql` or o."id" = any(${`{${ids.join(',')}}`}::int[])` : sql``})`;

/**
 * Folds orders `o` (those `which` selects) into customer_brand_orders: the first two and the last
 * order of each customer at each brand, among those already kept and these. Reading an order twice
 * changes nothing (orders are told apart by id).
 */
async function foldCustomers(tx: Tx, which: SQL) {
  await tx.execute(sql`
    insert into "customer_brand_orders" ("user_id", "brand_id", "first_at", "first_id", "second_at", "second_id", "last_at", "last_id")
    select "user_id", "brand_id",
      max("at") filter (where rn = 1), max("id") filter (where rn = 1),
      max("at") filter (where rn = 2), max("id") filter (where rn = 2),
      max("at") filter (where rd = 1), max("id") filter (where rd = 1)
    from (
      select c.*, row_number() over (partition by "user_id", "brand_id" order by "at", "id") as rn,
                  row_number() over (partition by "user_id", "brand_id" order by "at" desc, "id" desc) as rd
      from (
        select o."user_id", o."brand_id", o."created_at" as "at", o."id" from "orders" o where ${which}
        union
        select k."user_id", k."brand_id", v."at", v."id" from "customer_brand_orders" k
        cross join lateral (values (k."first_at", k."first_id"), (k."second_at", k."second_id"), (k."last_at", k."last_id")) v("at", "id")
        where v."id" is not null
          and (k."user_id", k."brand_id") in (select o."user_id", o."brand_id" from "orders" o where ${which})
      ) c
    ) ranked
    group by "user_id", "brand_id"
    on conflict ("user_id", "brand_id") do update set
      "first_at" = excluded."first_at", "first_id" = excluded."first_id",
      "second_at" = excluded."second_at", "second_id" = excluded."second_id",
      "last_at" = excluded."last_at", "last_id" = excluded."last_id"`);
}

/**
 * How long a writer may take between stamping an order (its id, or its update time) and committing
 * it, clocks of the replicas included. An id that was missing when read is looked for again this
 * long; changes are read again from this long before the newest change seen.
 */
const LAG_MS = 5 * 60_000;
/** Beyond this many days to recompute, rebuilding the whole rollup is cheaper. */
const MAX_DAYS_TO_RECOMPUTE = 2_000;
/** pg_advisory_xact_lock key of the refresh (one refresher at a time across replicas). */
const REFRESH_LOCK = 0x5747_0013;

/**
 * Recomputes payment_daily_stats for the (branch, Kuwait day of payment) pairs given, from the paid
 * orders of those days (the paid-time index). A payment's time is stamped once, when the order is
 * paid, so an order never leaves the day it was counted on; its refund state moves within it.
 */
async function refreshPayments(tx: Tx, paidDays: { branch_id: number; day: number }[], off: number) {
  const timed = paidDays.filter((d) => d.day !== NO_PAID_DAY);
  const untimed = paidDays.filter((d) => d.day === NO_PAID_DAY).map((d) => d.branch_id);
  const keys = sql`unnest(${`{${paidDays.map((d) => d.branch_id).join(',')}}`}::int[], ${`{${paidDays.map((d) => d.day).join(',')}}`}::int[]) k("branch_id", "day")`;
  await tx.execute(sql`delete from "payment_daily_stats" d using ${keys} where d."branch_id" = k."branch_id" and d."day" = k."day"`);
  const sources: SQL[] = [];
  if (timed.length) {
    sources.push(sql`select o.* from unnest(${`{${timed.map((d) => d.branch_id).join(',')}}`}::int[], ${`{${timed.map((d) => d.day).join(',')}}`}::int[]) k("branch_id", "day")
      join "orders" o on o."payment" = 'paid' and o."branch_id" = k."branch_id"
        and o."paid_at" >= to_timestamp(k."day"::bigint * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})
        and o."paid_at" < to_timestamp((k."day"::bigint + 1) * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})`);
  }
  if (untimed.length) {
    sources.push(sql`select o.* from "orders" o where o."payment" = 'paid' and o."paid_at" is null and o."branch_id" = any(${`{${untimed.join(',')}}`}::int[])`);
  }
  await tx.execute(sql`insert into "payment_daily_stats" (${PAYMENT_COLUMNS}) ${paymentRowsOf(sql`(${sql.join(sources, sql` union all `)}) o`)}`);
}

/**
 * Brings the rollup up to date with the orders. Called at the start of each statistics call; reads
 * only what changed since the last call, through the primary key (new orders) and the partial index
 * of lifecycle-changed orders (orders_changed_idx). One refresher at a time (advisory lock).
 */
export async function refreshStatistics(db: Db): Promise<void> {
  if (await upToDate(db)) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REFRESH_LOCK})`);
    await tx.insert(statisticsWatermark).values({ id: 1 }).onConflictDoNothing();
    const [mark] = await tx.select().from(statisticsWatermark).where(eq(statisticsWatermark.id, 1));
    const [top] = rowsOf<{ max_id: number | null; max_changed: string | Date | null; now: string | Date }>(await tx.execute(sql`
      select (select max("id") from "orders")::int as max_id,
             (select max("updated_at") from "orders" where "version" > 0) as max_changed,
             now() as now`));
    const maxId = Number(top.max_id ?? 0);
    const now = new Date(top.now).getTime();
    const seenChanged = mark.seenChangedAt ? mark.seenChangedAt.getTime() : null;
    const maxChanged = top.max_changed ? new Date(top.max_changed).getTime() : null;

    let missing = (mark.missingOrderIds as [number, number][]).filter(([, since]) => since > now - LAG_MS);
    let seenOrderId = mark.seenOrderId;
    const off = offsetSeconds();
    const news = newOrders(seenOrderId, missing.map(([id]) => id));
    let days: { branch_id: number; day: number }[] | null = null;
    let seenChanges: [number, number][] = [];
    let paidDays: { branch_id: number; day: number }[] = [];
    if (mark.builtAt) {
      const changed = seenChanged === null
        ? sql`o."version" > 0`
        : sql`o."version" > 0 and o."updated_at" > ${new Date(seenChanged - LAG_MS).toISOString()}::timestamptz`;
      const dayOf = sql`floor((extract(epoch from o."created_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int`;
      const paidDay = sql`case when o."payment" = 'paid' then coalesce(floor((extract(epoch from o."paid_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int, ${NO_PAID_DAY}) end`;
      type Touched = { branch_id: number; day: number; paid_day: number | null; id: number | null; version: number | null; updated_at: string | Date | null };
      const read = rowsOf<Touched>(await tx.execute(sql`
        select o."branch_id", ${dayOf} as day, ${paidDay} as paid_day, null::int as id, null::int as version, null::timestamptz as updated_at
        from "orders" o where ${news}
        union all
        select o."branch_id", ${dayOf} as day, ${paidDay} as paid_day, o."id", o."version", o."updated_at" from "orders" o where ${changed}`));
      // A changed order still at the version its days were recomputed with has not moved since.
      const seen = new Set((mark.seenChanges as [number, number][]).map(([id, version]) => `${id}:${version}`));
      const touched = read.filter((r) => r.id === null || !seen.has(`${r.id}:${r.version}`));
      const windowFrom = Math.max(maxChanged ?? 0, seenChanged ?? 0) - LAG_MS;
      seenChanges = read.filter((r) => r.id !== null && new Date(r.updated_at!).getTime() > windowFrom).map((r) => [Number(r.id), Number(r.version)]);
      const unique = <T,>(xs: T[], key: (x: T) => string) => [...new Map(xs.map((x) => [key(x), x])).values()];
      days = unique(touched.map((r) => ({ branch_id: Number(r.branch_id), day: Number(r.day) })), (d) => `${d.branch_id}:${d.day}`);
      paidDays = unique(touched.filter((r) => r.paid_day !== null).map((r) => ({ branch_id: Number(r.branch_id), day: Number(r.paid_day) })), (d) => `${d.branch_id}:${d.day}`);
    }
    if (!days || days.length > MAX_DAYS_TO_RECOMPUTE) {
      // First call (or too much changed at once): every order.
      await tx.execute(sql`delete from "order_daily_stats"`);
      await tx.execute(sql`insert into "order_daily_stats" (${DAILY_COLUMNS}) ${dailyRowsOf(sql`"orders" o`)}`);
      await tx.execute(sql`delete from "order_daily_times"`);
      await tx.execute(sql`insert into "order_daily_times" (${TIMES_COLUMNS}) ${dailyTimesOf(sql`"orders" o`)}`);
      await tx.execute(sql`delete from "order_monthly_quality"`);
      await tx.execute(sql`insert into "order_monthly_quality" (${MONTHLY_COLUMNS}) ${monthlyRowsOf(sql`"order_daily_stats" s
        left join "order_daily_times" t on t."branch_id" = s."branch_id" and t."day" = s."day"`)}`);
      await tx.execute(sql`delete from "payment_daily_stats"`);
      await tx.execute(sql`insert into "payment_daily_stats" (${PAYMENT_COLUMNS}) ${paymentRowsOf(sql`"orders" o`)}`);
      await tx.execute(sql`delete from "customer_brand_orders"`);
      await foldCustomers(tx, sql`true`);
      missing = [];
      seenOrderId = 0;
      seenChanges = [];
    } else {
      if (days.length) {
        const keys = sql`unnest(${`{${days.map((d) => d.branch_id).join(',')}}`}::int[], ${`{${days.map((d) => d.day).join(',')}}`}::int[]) k("branch_id", "day")`;
        await tx.execute(sql`delete from "order_daily_stats" d using ${keys} where d."branch_id" = k."branch_id" and d."day" = k."day"`);
        const ofDays = sql`${keys} join "orders" o on o."branch_id" = k."branch_id"
          and o."created_at" >= to_timestamp(k."day"::bigint * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})
          and o."created_at" < to_timestamp((k."day"::bigint + 1) * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})`;
        await tx.execute(sql`insert into "order_daily_stats" (${DAILY_COLUMNS}) ${dailyRowsOf(ofDays)}`);
        await tx.execute(sql`delete from "order_daily_times" d using ${keys} where d."branch_id" = k."branch_id" and d."day" = k."day"`);
        await tx.execute(sql`insert into "order_daily_times" (${TIMES_COLUMNS}) ${dailyTimesOf(ofDays)}`);
        // The months of those days are summed again from their days.
        const months = [...new Map(days.map((d) => [`${d.branch_id}:${monthOf(d.day)}`, { branch_id: d.branch_id, month: monthOf(d.day) }])).values()];
        const monthKeys = sql`unnest(${`{${months.map((m) => m.branch_id).join(',')}}`}::int[], ${`{${months.map((m) => m.month).join(',')}}`}::int[],
          ${`{${months.map((m) => nextMonthOf(m.month)).join(',')}}`}::int[]) m("branch_id", "month", "next")`;
        await tx.execute(sql`delete from "order_monthly_quality" q using ${monthKeys} where q."branch_id" = m."branch_id" and q."month" = m."month"`);
        await tx.execute(sql`insert into "order_monthly_quality" (${MONTHLY_COLUMNS}) ${monthlyRowsOf(sql`${monthKeys}
          join "order_daily_stats" s on s."branch_id" = m."branch_id" and s."day" >= m."month" and s."day" < m."next"
          left join "order_daily_times" t on t."branch_id" = s."branch_id" and t."day" = s."day"`)}`);
        await foldCustomers(tx, news);
      }
      if (paidDays.length) await refreshPayments(tx, paidDays, off);
      // Missing ids that have turned up since are read now; the rest stay missing.
      if (missing.length) {
        const found = new Set(rowsOf<{ id: number }>(await tx.execute(sql`
          select "id" from "orders" where "id" = any(${`{${missing.map(([id]) => id).join(',')}}`}::int[])`)).map((r) => Number(r.id)));
        missing = missing.filter(([id]) => !found.has(id));
      }
    }
    // Ids up to the newest that are not there yet: a writer may still commit them.
    if (maxId > seenOrderId) {
      const gaps = rowsOf<{ id: number }>(await tx.execute(sql`
        select g::int as id from generate_series(${seenOrderId + 1}::int, ${maxId}::int) g
        where not exists (select 1 from "orders" o where o."id" = g)`));
      missing = [...missing, ...gaps.map((g) => [Number(g.id), now] as [number, number])];
    }
    await tx.update(statisticsWatermark).set({
      builtAt: mark.builtAt ?? new Date(now),
      seenOrderId: Math.max(seenOrderId, maxId),
      missingOrderIds: missing,
      seenChangedAt: maxChanged === null ? mark.seenChangedAt : new Date(Math.max(maxChanged, seenChanged ?? 0)),
      seenChanges,
    }).where(eq(statisticsWatermark.id, 1));
  });
}

/**
 * Whether a refresh would find nothing to do (one statement, no lock): the rollup is built, no id is
 * missing, no order past the newest id read, and every lifecycle-changed order of the re-read window
 * is at the version its days were recomputed with. The common case of a statistics call.
 */
async function upToDate(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ fresh: boolean }>(await db.execute(sql`
    select w."built_at" is not null and jsonb_array_length(w."missing_order_ids") = 0
       and coalesce((select max(o."id") from "orders" o), 0) <= w."seen_order_id"
       and not exists (select 1 from "orders" o where o."version" > 0
         and (w."seen_changed_at" is null or o."updated_at" > w."seen_changed_at" - ${sql.raw(`interval '${LAG_MS / 1000} seconds'`)})
         and (o."id", o."version") not in (select (e->>0)::int, (e->>1)::int from jsonb_array_elements(w."seen_changes") e)) as fresh
    from "statistics_watermark" w where w."id" = 1`));
  return row?.fresh === true;
}
