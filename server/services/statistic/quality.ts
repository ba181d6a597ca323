import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { ACCEPT_COLUMNS, ACCEPT_SECONDS_BOUNDS, READY_COLUMNS, READY_SECONDS_BOUNDS } from '../../db/schema';
import {
  ACCEPT_SECONDS, dailyRowsOf, HAS_ACCEPT, HAS_READY, monthOf, nextMonthOf, READY_SECONDS, refreshStatistics, splitPeriod, timesBucketsOf,
} from './rollup';
import { inPeriod } from './statistics';
import type { Period } from '../../http/period';

/** One branch's (or the whole scope's) quality figures over a period. */
export interface QualityFigures {
  orders: number; accepted: number; rejected: number; notAcceptedInTime: number; noShows: number; refunded: number;
  /** As PostgreSQL sums it (numeric), so no floating-point sum creeps in. */
  refundedAmount: string;
  /** percentile_cont(0.5 / 0.9) of the seconds, unrounded; null without accepted (readied) orders. */
  medianAccept: number | null; p90Accept: number | null; medianReady: number | null;
}

const COUNTS = ['orders', 'accepted', 'rejected', 'not_accepted_in_time', 'no_shows', 'refunded'] as const;
type Kind = 'accept' | 'ready';
const KINDS: Record<Kind, { columns: string[]; bounds: number[]; seconds: SQL; has: SQL }> = {
  accept: { columns: ACCEPT_COLUMNS, bounds: ACCEPT_SECONDS_BOUNDS, seconds: ACCEPT_SECONDS, has: HAS_ACCEPT },
  ready: { columns: READY_COLUMNS, bounds: READY_SECONDS_BOUNDS, seconds: READY_SECONDS, has: HAS_READY },
};

/**
 * The quality report's figures for each branch of `branchIds` and for all of them together, over
 * the orders placed in `period` (docs/decisions.md "Statistics within budget"). Counts come from the
 * rollup (whole months from order_monthly_quality, the other whole days from order_daily_stats and
 * order_daily_times, the pieces of a day at the period's ends from the orders through the same SQL).
 * The percentiles are exact, in two passes: the rollup's histograms of seconds say which bucket holds
 * the k-th time and its rank in it, then only that bucket's orders are read (the partial indexes of
 * accepted and readied orders by branch and seconds) and percentile_cont's interpolation is done on
 * the two values, as PostgreSQL does it.
 */
export async function qualityFiguresOf(db: Db, branchIds: number[], period: Period):
  Promise<{ overall: QualityFigures; byBranch: Map<number, QualityFigures> }> {
  await refreshStatistics(db);
  // Both passes read one snapshot, in which the rollup must hold every order: a change committed
  // between the refresh and the snapshot is seen by the watermark check and the call reads again.
  return db.transaction(async (tx) => {
    const [fresh] = rowsOf<{ fresh: boolean }>(await tx.execute(sql`
      select coalesce((select max("id") from "orders"), 0) <= w."seen_order_id"
         and coalesce((select max("updated_at") from "orders" where "version" > 0) <= w."seen_changed_at", w."seen_changed_at" is null
             and not exists (select 1 from "orders" where "version" > 0)) as fresh
      from "statistics_watermark" w where w."id" = 1`));
    if (!fresh?.fresh) throw new RetryQuality();
    return passes(tx, branchIds, period);
  }, { isolationLevel: 'repeatable read' });
}

async function passes(db: Db | Tx, branchIds: number[], period: Period) {
  const ids = sql.raw(branchIds.map(Number).join(','));
  const { days, pieces } = splitPeriod(period);
  const histogram = [...ACCEPT_COLUMNS, ...READY_COLUMNS];
  const cols = (prefix: string) => sql.raw([...COUNTS, 'refunded_amount'].map((c) => `${prefix}"${c}"`)
    .concat(histogram.map((c) => `t."${c}"`)).join(', '));
  const parts: SQL[] = [];
  if (days) {
    const from = days.fromDay ?? -Infinity;
    const to = days.toDay ?? Infinity;
    // Whole months inside the whole days; the days either side of them from the daily rows.
    const firstMonth = Number.isFinite(from) ? (monthOf(from) === from ? from : nextMonthOf(from)) : -Infinity;
    const endMonth = Number.isFinite(to) ? monthOf(to) : Infinity;
    const dayRanges: [number, number][] = [];
    if (firstMonth < endMonth) {
      parts.push(sql`select q."branch_id", ${sql.raw([...COUNTS, 'refunded_amount', ...histogram].map((c) => `q."${c}"`).join(', '))}
        from "order_monthly_quality" q where q."branch_id" in (${ids})
        ${Number.isFinite(firstMonth) ? sql`and q."month" >= ${firstMonth}` : sql``}
        ${Number.isFinite(endMonth) ? sql`and q."month" < ${endMonth}` : sql``}`);
      if (from < firstMonth) dayRanges.push([from, firstMonth]);
      if (endMonth < to) dayRanges.push([endMonth, to]);
    } else {
      dayRanges.push([from, to]);
    }
    for (const [a, b] of dayRanges) {
      parts.push(sql`select s."branch_id", ${cols('s.')}
        from "order_daily_stats" s join "order_daily_times" t on t."branch_id" = s."branch_id" and t."day" = s."day"
        where s."branch_id" in (${ids})
        ${Number.isFinite(a) ? sql`and s."day" >= ${a}` : sql``} ${Number.isFinite(b) ? sql`and s."day" < ${b}` : sql``}`);
    }
  }
  // The pieces of a day at the period's ends: their counts here, their histograms as rows below.
  const pieceOrders = pieces.length
    ? sql`"orders" o where o."branch_id" in (${ids}) and (${sql.join(pieces.map((p) => inPeriod(sql`o."created_at"`, p)), sql` or `)})`
    : null;
  if (pieceOrders) {
    const noHistogram = sql.raw([...COUNTS, 'refunded_amount'].map((c) => `s."${c}"`).concat(histogram.map((c) => `null::int as "${c}"`)).join(', '));
    parts.push(sql`select s."branch_id", ${noHistogram} from (${dailyRowsOf(pieceOrders)}) s`);
  }
  type Row = Record<string, string | number | null> & { whole: number; branch_id: number | null };
  const sums = sql.raw([...COUNTS, ...histogram].map((c) => `coalesce(sum("${c}"), 0)::int as "${c}"`)
    .concat(`coalesce(sum("refunded_amount"), 0)::text as "refunded_amount"`).join(', '));
  const rows = parts.length ? rowsOf<Row>(await db.execute(sql`
    select grouping("branch_id")::int as whole, "branch_id", ${sums}
    from (${sql.join(parts, sql` union all `)}) x
    group by grouping sets (("branch_id"), ())`)) : [];
  if (pieceOrders) {
    // Each bucket's orders of the pieces, added to their branch's histogram and to the whole's.
    const buckets = rowsOf<{ branch_id: number; kind: Kind; bucket: number; n: number }>(await db.execute(timesBucketsOf(pieceOrders)));
    for (const b of buckets) {
      const column = KINDS[b.kind].columns[Number(b.bucket)];
      for (const row of rows.filter((r) => Number(r.whole) === 1 || Number(r.branch_id) === Number(b.branch_id))) {
        row[column] = Number(row[column] ?? 0) + Number(b.n);
      }
    }
  }

  // First pass done: each group's histograms. The ranks each percentile needs, and where they lie.
  type Group = { key: string; branches: number[]; row: Row | undefined };
  const groups: Group[] = [
    { key: 'all', branches: branchIds, row: rows.find((r) => Number(r.whole) === 1) },
    ...rows.filter((r) => Number(r.whole) === 0).map((r) => ({ key: String(r.branch_id), branches: [Number(r.branch_id)], row: r })),
  ];
  type Need = { group: string; kind: Kind; bucket: number; offset: number; limit: number; branches: number[]; count: number };
  const needs = new Map<string, Need>();
  const wanted: { group: string; figure: 'medianAccept' | 'p90Accept' | 'medianReady'; kind: Kind; f: number; n: number; lo: number; hi: number }[] = [];
  for (const g of groups) {
    if (!g.row) continue;
    for (const [figure, kind, f] of [['medianAccept', 'accept', 0.5], ['p90Accept', 'accept', 0.9], ['medianReady', 'ready', 0.5]] as const) {
      const counts = KINDS[kind].columns.map((c) => Number(g.row![c] ?? 0));
      const n = counts.reduce((a, b) => a + b, 0);
      if (!n) continue;
      // percentile_cont: the values at 0-based ranks floor and ceil of f·(n−1).
      const pos = f * (n - 1);
      const lo = Math.floor(pos);
      const hi = Math.ceil(pos);
      wanted.push({ group: g.key, figure, kind, f, n, lo, hi });
      for (const rank of new Set([lo, hi])) {
        let before = 0;
        let bucket = 0;
        while (before + counts[bucket] <= rank) before += counts[bucket++];
        const key = `${g.key}:${kind}:${bucket}`;
        const need = needs.get(key) ?? { group: g.key, kind, bucket, offset: rank - before, limit: 0, branches: g.branches, count: counts[bucket] };
        const first = Math.min(need.offset, rank - before);
        const last = Math.max(need.offset + Math.max(need.limit, 1) - 1, rank - before);
        needs.set(key, { ...need, offset: first, limit: last - first + 1 });
      }
    }
  }
  // Second pass: the few orders of each bucket in question, by seconds, from the rank needed on.
  const values = new Map<string, number[]>();
  if (needs.size) {
    const list = [...needs.values()];
    const edge = (bounds: number[], i: number) => (i < 0 ? '-Infinity' : i >= bounds.length ? 'Infinity' : String(bounds[i]));
    const arrays = (f: (n: Need) => string | number) => `{${list.map((n) => `"${f(n)}"`).join(',')}}`;
    // Index-only walks in order that stop at the rank needed: one branch its own index (branch,
    // seconds), several (the whole scope) the index of every branch by seconds, filtering the
    // branches and the period on the way (the planner may still prefer the branches' own bucket
    // and a sort when the scope is a small part of all branches).
    // The bucket's count in the group is the number of orders the walk filters (same snapshot, same
    // edges, same period), so a rank in the bucket's upper half is read walking down from its top.
    const back = (n: Need) => n.count - (n.offset + n.limit) < n.offset;
    const read = ([kind, one, down]: [Kind, boolean, boolean]) => {
      const { seconds, has } = KINDS[kind];
      return sql`(select ${seconds} as secs from "orders" o
        where n.kind = ${kind} and ${sql.raw(down ? 'n.back' : 'not n.back')} and ${one ? sql`n.branch is not null and o."branch_id" = n.branch` : sql`n.branch is null and o."branch_id" = any(n.branches::int[])`}
          and ${has} and ${seconds} >= n.lo and ${seconds} < n.hi and ${inPeriod(sql`o."created_at"`, period)}
        order by ${seconds} ${down ? sql`desc` : sql`asc`} offset n.off limit n.lim)`;
    };
    // Only the walks some need takes are planned.
    const walks = [...new Map(list.map((n) => [`${n.kind}:${n.branches.length === 1}:${back(n)}`, [n.kind, n.branches.length === 1, back(n)] as [Kind, boolean, boolean]])).values()];
    const found = rowsOf<{ i: number; secs: string }>(await db.execute(sql`
      select n.i, x.secs::float8::text as secs
      from unnest(${arrays((_) => list.indexOf(_))}::int[], ${arrays((_) => _.kind)}::text[], ${arrays((_) => `{${_.branches.join(',')}}`)}::text[],
                  ${arrays((_) => edge(KINDS[_.kind].bounds, _.bucket - 1))}::numeric[], ${arrays((_) => edge(KINDS[_.kind].bounds, _.bucket))}::numeric[],
                  ${arrays((_) => (back(_) ? _.count - _.offset - _.limit : _.offset))}::int[], ${arrays((_) => _.limit)}::int[],
                  ${`{${list.map((_) => (_.branches.length === 1 ? _.branches[0] : 'NULL')).join(',')}}`}::int[],
                  ${arrays((_) => String(back(_)))}::boolean[]) n(i, kind, branches, lo, hi, off, lim, branch, back)
      cross join lateral (${sql.join(walks.map(read), sql` union all `)}) x
      order by n.i, x.secs`));
    for (const r of found) {
      const need = list[Number(r.i)];
      const key = `${need.group}:${need.kind}:${need.bucket}`;
      values.set(key, [...(values.get(key) ?? []), Number(r.secs)]);
    }
  }
  const valueAt = (group: string, kind: Kind, rank: number) => {
    const counts = KINDS[kind].columns.map((c) => Number(groups.find((g) => g.key === group)!.row![c] ?? 0));
    let before = 0;
    let bucket = 0;
    while (before + counts[bucket] <= rank) before += counts[bucket++];
    const need = needs.get(`${group}:${kind}:${bucket}`)!;
    const v = values.get(`${group}:${kind}:${bucket}`)?.[rank - before - need.offset];
    // The orders moved between the two passes (a lifecycle change committed meanwhile): read it again.
    if (v === undefined) throw new RetryQuality();
    return v;
  };
  const percentiles = new Map<string, Partial<QualityFigures>>();
  for (const w of wanted) {
    const a = valueAt(w.group, w.kind, w.lo);
    const b = valueAt(w.group, w.kind, w.hi);
    // float8_lerp, as percentile_cont computes it.
    const value = w.lo === w.hi ? a : a + (b - a) * (w.f * (w.n - 1) - w.lo);
    percentiles.set(w.group, { ...percentiles.get(w.group), [w.figure]: value });
  }
  const figuresOf = (g: Group): QualityFigures => ({
    orders: Number(g.row?.orders ?? 0), accepted: Number(g.row?.accepted ?? 0), rejected: Number(g.row?.rejected ?? 0),
    notAcceptedInTime: Number(g.row?.not_accepted_in_time ?? 0), noShows: Number(g.row?.no_shows ?? 0),
    refunded: Number(g.row?.refunded ?? 0), refundedAmount: String(g.row?.refunded_amount ?? '0'),
    medianAccept: percentiles.get(g.key)?.medianAccept ?? null, p90Accept: percentiles.get(g.key)?.p90Accept ?? null,
    medianReady: percentiles.get(g.key)?.medianReady ?? null,
  });
  return { overall: figuresOf(groups[0]), byBranch: new Map(groups.slice(1).map((g) => [Number(g.key), figuresOf(g)])) };
}

class RetryQuality extends Error {}

/** qualityFiguresOf, read again (up to three times) when an order moved during the call. */
export async function qualityFigures(db: Db, branchIds: number[], period: Period) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await qualityFiguresOf(db, branchIds, period);
    } catch (err) {
      if (!(err instanceof RetryQuality) || attempt >= 3) throw err;
    }
  }
}
