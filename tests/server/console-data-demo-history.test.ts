import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../server/db/client';
import { ledgerMismatches } from '../../server/loyalty/ledger';
import { createFetchApi } from '../support/fetchApi';
import { exitOf, killLeftovers, startMain, tempDataDir } from '../support/mainProcess';
import { freshPostgresDatabase, startTestServer, type TestServer } from '../support/server';

/**
 * Issue 23, "A demo that shows the product": `npm start`'s own path (app/main.ts) on a new data
 * directory writes six weeks of history (server/db/demoHistory.ts), so the dashboard's statistics,
 * the quality report, Payment History and the order lists have figures; the tests' seeded database
 * (startTestServer) keeps an empty history. Fails before the history: every figure is 0.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const API = '/api/services/app';
afterEach(killLeftovers);

let testServer: TestServer | undefined;
afterAll(async () => { await testServer?.close(); });

describe('the demo history', () => {
  it('the product start on a new data directory shows weeks of orders, revenue, refunds, customers, a quality report and payments; the ledger holds', async () => {
    const env = { DATA_DIR: tempDataDir(), GATEWAY: 'off' as const, ...(pgUrl ? { DATABASE_URL: await freshPostgresDatabase(pgUrl) } : {}) };
    const main = await startMain(env);
    console.log(main.output().match(/Brew Ops is ready in \d+ ms/)?.[0]);
    const api = createFetchApi(main.url);
    const admin = await api.login('admin');
    const get = async (p: string, query: Record<string, unknown> = {}, token = admin) => {
      const res = await api.get(`${API}/${p}`, { token, query });
      expect(res.status, JSON.stringify(res.body.error)).toBe(200);
      return res.body.result;
    };

    const stat = await get('Statistic/GetGeneralStatistic');
    expect(stat.orders).toBeGreaterThan(400);
    expect(stat.revenue).toBeGreaterThan(500);
    expect(stat.refunded).toBeGreaterThan(0);
    expect(stat.refundsDue).toBeGreaterThanOrEqual(0);
    expect(stat.customers).toBeGreaterThan(10);
    expect(stat.returningCustomers).toBeGreaterThan(5);
    expect(stat.ordersByWeekdayHour.length).toBeGreaterThan(50);
    // every demo branch sold something
    for (const b of stat.revenueByBranch) expect(b.revenue, b.branchName).toBeGreaterThan(0);
    // a week ago is part of it, and a brand manager's brand too
    const lastWeek = await get('Statistic/GetGeneralStatistic', { fromDate: new Date(Date.now() - 7 * 86_400_000).toISOString() });
    expect(lastWeek.orders).toBeGreaterThan(50);
    expect(lastWeek.orders).toBeLessThan(stat.orders);
    const brand = await get('Statistic/GetStatisticByBrand', { brandId: 7 }, await api.login('brandmanager'));
    expect(brand.orders).toBeGreaterThan(100);

    const quality = await get('QualityReport/GetBranchQualityReport');
    expect(quality.overall.orders).toBe(stat.orders);
    expect(quality.overall).toMatchObject({ rejected: expect.any(Number), noShows: expect.any(Number), refunded: expect.any(Number) });
    expect(quality.overall.rejected).toBeGreaterThan(0);
    expect(quality.overall.notAcceptedInTime).toBeGreaterThan(0);
    expect(quality.overall.noShows).toBeGreaterThan(0);
    expect(quality.overall.refunded).toBeGreaterThan(0);
    expect(quality.overall.medianAcceptSeconds).toBeGreaterThan(0);

    const payments = await get('PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser', { MaxResultCount: 10 });
    expect(payments.totalCount).toBeGreaterThan(300);
    expect(payments.data).toHaveLength(10);

    const scans = await get('Statistic/GetCustomerRewardCardScanStatisticByDates', {
      brandId: 7, fromDate: new Date(Date.now() - 30 * 86_400_000).toISOString(), toDate: new Date().toISOString(),
    });
    expect(scans.scans).toBeGreaterThan(50);

    main.child.kill('SIGTERM');
    expect((await exitOf(main, 30_000)).code).toBe(0);

    // The database itself: the rollup's figures are the orders', and the ledger equals the wallets.
    const database = await openDatabase(pgUrl ? { databaseUrl: env.DATABASE_URL } : { dataDir: path.join(env.DATA_DIR, 'pglite') });
    try {
      const [direct] = rowsOf<{ orders: number; paid: string; refunded: string; open: number; notifications: number; news: number; wallets: number }>(await database.db.execute(sql`
        select (select count(*)::int from orders) as orders,
               (select coalesce(sum(total), 0)::text from orders where payment = 'paid') as paid,
               (select coalesce(sum(amount), 0)::text from refunds where status = 'refunded') as refunded,
               (select count(*)::int from orders where status in ('accepted', 'ready')) as open,
               (select count(*)::int from customer_notifications) as notifications,
               (select count(*)::int from brand_advertisements) as news,
               (select count(*)::int from customer_wallets where balance > 0) as wallets`));
      expect(stat.orders).toBe(Number(direct.orders));
      expect(stat.revenue).toBeCloseTo(Number(direct.paid) - Number(direct.refunded), 3);
      expect(stat.refunded).toBeCloseTo(Number(direct.refunded), 3);
      expect(Number(direct.notifications)).toBeGreaterThan(5);
      expect(Number(direct.news)).toBeGreaterThanOrEqual(3);
      expect(Number(direct.wallets)).toBeGreaterThan(3);
      expect(await ledgerMismatches(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 300_000);

  it("the tests' seeded database keeps an empty history", async () => {
    testServer = await startTestServer();
    const api = testServer.api;
    const stat = (await api.get(`${API}/Statistic/GetGeneralStatistic`, { token: await api.login('admin') })).body.result;
    expect(stat).toMatchObject({ orders: 0, revenue: 0, refunded: 0, customers: 0 });
  }, 120_000);
});
