import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, newContext, screenshot, signIn } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';
import { formatMoney } from '../../domain/money';

/** The admin dashboard's statistics in Chromium: the charts' "view as table" shows the server's figures (issue 13). */
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  for (let i = 0; i < 3; i++) await placeGuestOrder(server.api, { name: `Stat guest ${i}` });
  // one registered customer's order: a new customer (guests are not counted as customers)
  await placeGuestOrder(server.api, { token: await server.api.login('customer') });
});

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const tableRows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr').evaluateAll(
  (rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '')),
);

describe('dashboard statistics', () => {
  it('the admin sees the seeded figures, and each chart\'s table shows the same numbers', async () => {
    const admin = await server.api.login('admin');
    const stat = (await server.api.get('/api/services/app/Statistic/GetGeneralStatistic', { token: admin })).body.result;
    expect(stat).toMatchObject({ orders: 4, customers: 1, newCustomers: 1, returningCustomers: 0 });

    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await signIn(page, 'admin');
    const counts = page.getByRole('region', { name: 'Counts' });
    await counts.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('stat-orders').textContent()).toBe('4');
    expect(await page.getByTestId('stat-customers').textContent()).toBe('1');
    expect(await page.getByTestId('stat-companies').textContent()).toBe(String(stat.companies));
    expect(await page.getByTestId('stat-branches').textContent()).toBe(String(stat.branches));
    expect(await page.getByTestId('stat-revenue').textContent()).toBe(formatMoney(stat.revenue));
    // the charts are drawn (SVG)
    await page.getByRole('region', { name: 'Orders by weekday and hour' }).locator('svg').first().waitFor();
    await screenshot(page, 'dashboard-statistics-charts-1280');

    for (const title of ['Orders by weekday and hour', 'Revenue by branch', 'New and returning customers']) {
      await page.getByRole('region', { name: title }).getByText('View as table').click();
    }
    expect(await tableRows(page, 'Orders by weekday and hour')).toEqual(
      stat.ordersByWeekdayHour.map((c: { weekday: number; hour: number; orders: number }) => [WEEKDAYS[c.weekday], `${String(c.hour).padStart(2, '0')}:00`, String(c.orders)]),
    );
    expect((await tableRows(page, 'Orders by weekday and hour')).reduce((n, r) => n + Number(r[2]), 0)).toBe(4);
    expect(await tableRows(page, 'Revenue by branch')).toEqual(
      stat.revenueByBranch.map((b: { branchName: string; brandName: string; orders: number; revenue: number }) => [b.branchName, b.brandName, String(b.orders), formatMoney(b.revenue)]),
    );
    // all four orders went to Salmiya (branch 1)
    expect((await tableRows(page, 'Revenue by branch')).find((r) => r[0] === 'Salmiya')?.[2]).toBe('4');
    expect(await tableRows(page, 'New and returning customers')).toEqual([['New', '1'], ['Returning', '0']]);
    await screenshot(page, 'dashboard-statistics-tables-1280');
    await context.close();
  });
});
