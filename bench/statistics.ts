import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/client';
import type { Caller } from '../server/http/context';
import { listOrders } from '../server/orders/list';
import { transitionOrder } from '../server/orders/transition';
import { inMemoryOrderEvents } from '../server/events/orderEvents';
import { branchScope } from '../server/orders/scope';
import { statisticOf } from '../server/services/statistic/statistics';
import { refreshStatistics } from '../server/services/statistic/rollup';
import { qualityReport } from '../server/services/operations/qualityReport';
import { paymentsHistory } from '../server/services/paymentDashboard/routes';
import { LIST_SERVER_GOAL_MS } from './goals';
import { profileStatisticOf, scanStatisticOf, scansByBranchOf } from '../server/services/rewardCardScans/scanStatistics';

/**
 * Issue 13's rule: "Statistics over 100,000 orders answer within the same budget as the order
 * lists". Every statistics call (Statistic, the reward card scan statistics, the quality report,
 * Payment History) on the orders bench's database (bench/orders.ts: a year of orders over 20
 * branches, PGlite in memory), each as a ratio of the admin's order list (first page) measured in
 * turn with it (≤ 1.0: no slower than that page), and against the order lists' own budget, issue 14's
 * ≤ 50 ms of server time (`LIST_SERVER_GOAL_MS`; called in-process here, so all of the time is the server's). Run by `npm run bench orders` (`BENCH_ORDERS=300000` for
 * 300,000; `BENCH_STATISTICS=quality` for the calls whose name matches). Prints figures; never fails on slowness.
 */
export async function benchStatisticsOn(db: Db, total: number, runs = 9) {
  await scans(db, total);
  console.log(`\nstatistics: ${total.toLocaleString('en')} orders`);
  // The rollup's first build (once, on the first statistics call after the upgrade), then a refresh
  // that has nothing to read, then one after a status change (what a call pays on a live database).
  const built = performance.now();
  await refreshStatistics(db);
  console.log(`rollup first build over every order: ${(performance.now() - built).toFixed(0)} ms`);

  const admin: Caller = { id: 1, role: 'ADMIN', companyId: null, brandId: null, branchId: null, isGuest: false };
  const company: Caller = { id: 2, role: 'COMPANY_ADMIN', companyId: 1, brandId: null, branchId: null, isGuest: false };
  const brand: Caller = { id: 3, role: 'BRAND_MANAGER', companyId: 1, brandId: 7, branchId: null, isGuest: false };
  const branch: Caller = { id: 4, role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1, isGuest: false };
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
  const lastQuarter = { from: new Date(daysAgo(120).getTime() + 3_723_000), to: new Date(daysAgo(30).getTime() + 1_234_000) };
  let probe = 1;

  const cases: [string, () => Promise<unknown>][] = [
    ['baseline: admin order list, first page', () => listOrders(db, admin, {}, { skip: 0, take: 10 }, { includeCounts: false })],
    ['rollup refresh, nothing new', () => refreshStatistics(db)],
    ['rollup refresh after a status change', async () => {
      probe = (probe * 7919) % total;
      await transitionOrder({ db, events: inMemoryOrderEvents() }, probe + 1, { type: 'order.markRead' }, null).catch(() => {});
      await refreshStatistics(db);
    }],
    ['statistics: general, all time', () => statisticOf(db, { kind: 'general' }, {})],
    ['statistics: company 1, all time', () => statisticOf(db, { kind: 'company', companyId: 1 }, {})],
    ['statistics: brand 7, last 30 days', () => statisticOf(db, { kind: 'brand', brandId: 7 }, { from: daysAgo(30) })],
    ['statistics: brand 7, 90 days mid-day to mid-day', () => statisticOf(db, { kind: 'brand', brandId: 7 }, lastQuarter)],
    ['scans: brand 7, all time', () => scanStatisticOf(db, 7, {})],
    ['scans: brand 7, 90 days', () => scanStatisticOf(db, 7, lastQuarter)],
    ['scans: customer profiles of brand 7', () => profileStatisticOf(db, 7)],
    ['scans: by branch, admin, 30 days', () => scansByBranchOf(db, branchScope(admin) ?? sql`true`, { from: daysAgo(30) })],
    ['quality report: admin, last 30 days', () => qualityReport(db, admin, { fromDate: daysAgo(30).toISOString() })],
    ['quality report: admin, all time', () => qualityReport(db, admin, {})],
    ['quality report: branch user, all time', () => qualityReport(db, branch, {})],
    ['quality report: brand 7, 90 days mid-day to mid-day', () => qualityReport(db, brand, { brandId: 7, fromDate: lastQuarter.from.toISOString(), toDate: lastQuarter.to.toISOString() })],
    ['payment history: brand manager, first page', () => paymentsHistory(db, brand, { SkipCount: 0, MaxResultCount: 25 })],
    ['payment history: admin, first page', () => paymentsHistory(db, admin, { SkipCount: 0, MaxResultCount: 25 })],
    ['payment history: admin, one method, page 40', () => paymentsHistory(db, admin, { SkipCount: 975, MaxResultCount: 25, paymentSystemId: 2 })],
    ['payment history: admin, 90 days mid-day to mid-day', () => paymentsHistory(db, admin, { SkipCount: 0, MaxResultCount: 25, fromDate: lastQuarter.from.toISOString(), toDate: lastQuarter.to.toISOString() })],
    ['payment history: company, 30 days, by amount', () => paymentsHistory(db, company, { SkipCount: 0, MaxResultCount: 25, fromDate: daysAgo(30).toISOString(), Sorting: 'amount desc' })],
  ];

  // Each call runs in turn with the baseline (baseline, call, baseline, call…), and is read against
  // the baseline's median of its own rounds: on a shared machine the load then falls on both alike.
  const [baseName, baseline] = cases[0];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const timed = async (run: () => Promise<unknown>) => { const start = performance.now(); await run(); return performance.now() - start; };
  const results: { name: string; median: number; baseline: number }[] = [];
  // BENCH_STATISTICS=<regular expression>: only the calls whose name matches (the baseline still runs in turn).
  const only = process.env.BENCH_STATISTICS ? new RegExp(process.env.BENCH_STATISTICS) : null;
  for (const [name, run] of cases.slice(1).filter(([name]) => !only || only.test(name))) {
    await baseline();
    await run(); // warm up
    const own: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < runs; i++) {
      base.push(await timed(baseline));
      own.push(await timed(run));
    }
    results.push({ name, median: median(own), baseline: median(base) });
  }
  // Ratios hold up under load better than times, but say how loaded the machine was.
  console.log(`\nload average while measured: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  console.log(`\n${'call'.padEnd(56)} ${'median ms'.padStart(10)} ${'baseline ms'.padStart(12)} ${'× baseline'.padStart(11)} ${'goal'.padStart(6)}   lists' budget (≤ ${LIST_SERVER_GOAL_MS} ms)`);
  console.log(`(baseline: ${baseName}, measured in turn with each call)`);
  for (const r of results) {
    const ratio = r.median / r.baseline;
    console.log(`${r.name.padEnd(56)} ${r.median.toFixed(2).padStart(10)} ${r.baseline.toFixed(2).padStart(12)} ${ratio.toFixed(2).padStart(11)} ${'≤ 1.0'.padStart(6)}${ratio <= 1 ? '      ' : '  over'}   ${r.median <= LIST_SERVER_GOAL_MS ? 'within' : 'OVER'}`);
  }
  return results;
}

/** Reward card scans of the bench's registered customer: one per ten orders, a reward or a redemption. */
async function scans(db: Db, total: number) {
  await db.execute(sql`
    insert into reward_card_scans (brand_id, branch_id, user_id, scan_type, created_at)
    select o.brand_id, o.branch_id, o.user_id, case when o.id % 3 = 0 then 'redemption' else 'reward' end, o.created_at
    from orders o where o.user_id <> 18 and o.id % 10 = 0 and o.id <= ${total}`);
  await db.execute(sql`analyze reward_card_scans`);
}
