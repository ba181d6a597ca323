import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * Reward card scans in Chromium (issues 10 and 13): a brand manager opens /brands/qrscans for their
 * brand and sees the server's figures, in the counts and behind each chart's "View as table"; the
 * customer page shows the customer's scans and orders, and an order links to it on All Orders.
 * The fresh install's demo scans (server/db/demoScans.ts) are the data, plus one scan and one order made here.
 */
let orderId: number;
const SARA = 5;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  orderId = await placeGuestOrder(server.api, { token: await server.api.login('customer') });
  const scan = await server.api.post('/api/services/app/RewardCardScans/InsertUserRewardCardScan', {
    token: await server.api.login('branchuser'), body: { customerId: SARA, branchId: 1, scanType: 'reward', orderId },
  });
  expect(scan.status, JSON.stringify(scan.body)).toBe(200);
});

const DAY = 24 * 3600 * 1000;
const kuwaitDay = (at: Date) => at.toLocaleDateString('en-CA', { timeZone: 'Asia/Kuwait' });
const tableRows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr').evaluateAll(
  (rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '')),
);

describe('/brands/qrscans and the customer page', () => {
  it('a brand manager sees the figures the server answers for the last 30 days, chart by chart', async () => {
    const manager = await server.api.login('brandmanager');
    // The page's default period: the last 30 Kuwait days, today included.
    const from = kuwaitDay(new Date(Date.now() - 29 * DAY));
    const to = kuwaitDay(new Date());
    const period = { fromDate: new Date(`${from}T00:00:00+03:00`).toISOString(), toDate: new Date(new Date(`${to}T00:00:00+03:00`).getTime() + DAY).toISOString() };
    const stat = (await server.api.get('/api/services/app/Statistic/GetCustomerRewardCardScanStatisticByDates', { token: manager, query: { brandId: 7, ...period } })).body.result;
    const profiles = (await server.api.get('/api/services/app/Statistic/GetCustomerProfileStats', { token: manager, query: { brandId: 7 } })).body.result;
    expect(stat.scans, 'the demo scans and the one made here').toBeGreaterThan(20);
    expect(stat.scanned + stat.notScanned).toBe(stat.customers);

    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(String(e)));
    await signIn(page, 'brandmanager');
    await shotOnFailure(page, 'qrscans-figures', async () => {
      // the dashboard of a brand manager links to their brand's scans
      await page.getByRole('link', { name: 'Reward card scans of Mango Coffee' }).click({ timeout: 30_000 });
      await page.waitForURL('**/brands/qrscans/7/Mango%20Coffee');
      await page.getByRole('heading', { name: 'QR scans · Mango Coffee' }).waitFor({ timeout: 30_000 }).catch((e) => { throw new Error(`${e}\n${problems.join('\n')}`); });
      await page.getByTestId('qrscans-scans').waitFor({ timeout: 30_000 });
      const counts = { scans: stat.scans, reward: stat.rewardScans, redemption: stat.redemptionScans, scanned: stat.scanned, 'not-scanned': stat.notScanned, new: stat.newCustomers, returned: stat.returnedCustomers };
      for (const [id, n] of Object.entries(counts)) expect(await page.getByTestId(`qrscans-${id}`).textContent(), id).toBe(String(n));
      await page.getByRole('region', { name: 'Scans by date' }).locator('svg').first().waitFor();
      await page.getByRole('region', { name: 'Age bands' }).locator('svg').first().waitFor();
      await screenshot(page, 'qrscans-charts-1280');

      for (const title of ['Scans by date', 'Scanned and not scanned', 'Gender', 'Age bands', 'New and returned customers', 'Reward and redemption scans']) {
        await page.getByRole('region', { name: title }).getByText('View as table').click();
      }
      expect(await tableRows(page, 'Scans by date')).toEqual(stat.byDate.map((d: { date: string; rewardScans: number; redemptionScans: number; scans: number; customers: number }) =>
        [d.date, String(d.rewardScans), String(d.redemptionScans), String(d.scans), String(d.customers)]));
      expect(await tableRows(page, 'Scanned and not scanned')).toEqual([['Scanned', String(stat.scanned)], ['Not scanned', String(stat.notScanned)]]);
      expect(await tableRows(page, 'Gender')).toEqual([
        ['Male', String(stat.male), String(profiles.male)], ['Female', String(stat.female), String(profiles.female)], ['Not given', String(stat.genderNotGiven), String(profiles.genderNotGiven)],
      ]);
      expect(await tableRows(page, 'Age bands')).toEqual(stat.ageBands.map((b: { band: string; customers: number }, i: number) => [b.band, String(b.customers), String(profiles.ageBands[i].customers)]));
      expect(await tableRows(page, 'New and returned customers')).toEqual([['New', String(stat.newCustomers)], ['Returned', String(stat.returnedCustomers)]]);
      expect(await tableRows(page, 'Reward and redemption scans')).toEqual([['Reward', String(stat.rewardScans)], ['Redemption', String(stat.redemptionScans)]]);
      // the age bands add up to the scanned customers
      expect((await tableRows(page, 'Age bands')).reduce((n, r) => n + Number(r[1]), 0)).toBe(stat.scanned);
      await screenshot(page, 'qrscans-tables-1280');
    });

    await shotOnFailure(page, 'qrscans-customer', async () => {
      // the newest scan is the one made here: its customer link opens the customer page
      await page.getByTestId('qrscans-list').getByRole('link', { name: 'Sara Customer' }).first().click();
      await page.waitForURL(`**/customers/${SARA}`);
      await page.getByRole('tab', { name: 'Scans' }).click();
      const scans = page.getByTestId('customer-scans');
      await scans.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('customer-scan-totals').textContent()).toMatch(/^1 scan · 1 reward · 0 redemption/);
      expect(await scans.locator('tbody tr').first().textContent()).toContain(`Mango CoffeeSalmiyaReward#${orderId}`);
      await screenshot(page, 'qrscans-customer-scans-1280');

      await page.getByRole('tab', { name: 'Orders' }).click();
      const orders = page.getByTestId('customer-orders');
      await orders.waitFor({ timeout: 30_000 });
      const link = orders.getByRole('link').first();
      const number = await link.textContent();
      expect(number).toMatch(new RegExp(`^B1-0*${orderId}$`));
      await screenshot(page, 'qrscans-customer-orders-1280');
      await link.click();
      await page.waitForURL((url) => url.pathname === '/order' && url.search.includes(encodeURIComponent(`#${orderId}`)));
      await page.getByText(number!).first().waitFor({ timeout: 30_000 });
    });
    await context.close();
  });
});
