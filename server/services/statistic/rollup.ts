import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { HOUR_COLUMNS, statisticsWatermark } from '../../db/schema';
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
      coalesce(sum(x."total") filter (where x."payment" = 'paid' and x."refund" <> 'approved'), 0) as revenue,
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
 * Brings the rollup up to date with the orders. Called at the start of each statistics call; reads
 * only what changed since the last call, through the primary key (new orders) and the partial index
 * of lifecycle-changed orders (orders_changed_idx). One refresher at a time (advisory lock).
 */
export async function refreshStatistics(db: Db): Promise<void> {
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
    if (mark.builtAt) {
      const changed = seenChanged === null
        ? sql`o."version" > 0`
        : sql`o."version" > 0 and o."updated_at" > ${new Date(seenChanged - LAG_MS).toISOString()}::timestamptz`;
      const dayOf = sql`floor((extract(epoch from o."created_at") + ${sql.raw(String(off))}) / ${sql.raw(String(DAY_S))})::int`;
      days = rowsOf<{ branch_id: number; day: number }>(await tx.execute(sql`
        select o."branch_id", ${dayOf} as day from "orders" o where ${news}
        union
        select o."branch_id", ${dayOf} as day from "orders" o where ${changed}`));
    }
    if (!days || days.length > MAX_DAYS_TO_RECOMPUTE) {
      // First call (or too much changed at once): every order.
      await tx.execute(sql`delete from "order_daily_stats"`);
      await tx.execute(sql`insert into "order_daily_stats" (${DAILY_COLUMNS}) ${dailyRowsOf(sql`"orders" o`)}`);
      await tx.execute(sql`delete from "customer_brand_orders"`);
      await foldCustomers(tx, sql`true`);
      missing = [];
      seenOrderId = 0;
    } else {
      if (days.length) {
        const keys = sql`unnest(${`{${days.map((d) => d.branch_id).join(',')}}`}::int[], ${`{${days.map((d) => d.day).join(',')}}`}::int[]) k("branch_id", "day")`;
        await tx.execute(sql`delete from "order_daily_stats" d using ${keys} where d."branch_id" = k."branch_id" and d."day" = k."day"`);
        await tx.execute(sql`insert into "order_daily_stats" (${DAILY_COLUMNS}) ${dailyRowsOf(sql`${keys} join "orders" o on o."branch_id" = k."branch_id"
          and o."created_at" >= to_timestamp(k."day"::bigint * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})
          and o."created_at" < to_timestamp((k."day"::bigint + 1) * ${sql.raw(String(DAY_S))} - ${sql.raw(String(off))})`)}`);
        await foldCustomers(tx, news);
      }
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
    }).where(eq(statisticsWatermark.id, 1));
  });
}
