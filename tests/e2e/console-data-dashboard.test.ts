import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { launchBrowser, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { sendOrderEvent } from '../support/orders';
import { formatMoney } from '../../domain/money';

/**
 * Issue 23, "Numbers that add up", in Chromium: the dashboard says what each figure counts
 * (customers who ordered beside the registered customers), shows revenue after cash orders
 * collected at close with the refunds beside it, has a titled statistics card, a period, brand and
 * branch filter kept in the address (reload and Back restore it), and the reward-scan headline
 * figures of SPEC.md 3. Fails before: no title, no refunded / refunds due / registered customers,
 * no filter, no scan figures on the dashboard.
 */
let server: ServerProcess;
let browser: Browser;
const STORE = '/api/services/app/Store';
const PRICE = 0.9; // product 1 (Espresso), the guest order's one line
beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  const branch = await server.api.login('branchuser');
  const manager = await server.api.login('brandmanager');
  // Eight cash orders at Salmiya, each closed with the cash collected.
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) {
    const id = await placeGuestOrder(server.api, { name: `Cash guest ${i}` });
    expect((await sendOrderEvent(server.api, 'order.accept', id, branch)).status).toBe(200);
    const closed = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId: id, status: 'closed', cashCollected: true } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    ids.push(id);
  }
  // Two refunded: one handed back at the branch (refunded), one still owed (a refund due).
  for (const id of ids.slice(0, 2)) {
    expect((await sendOrderEvent(server.api, 'order.requestRefund', id, branch)).status).toBe(200);
    expect((await sendOrderEvent(server.api, 'order.approveRefund', id, manager)).status).toBe(200);
  }
  const [refund] = (await server.api.get('/api/services/app/Refund/GetOrderRefunds', { token: manager, query: { OrderId: ids[0] } })).body.result;
  expect((await server.api.post('/api/services/app/Refund/MarkRefundHandedBack', { token: manager, body: { refundId: refund.id } })).status).toBe(200);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const text = async (page: Page, id: string) => (await page.getByTestId(id).textContent())?.trim();
const figuresShow = (page: Page, id: string, value: string) => expect.poll(() => text(page, id), { timeout: 30_000 }).toBe(value);

describe('the dashboard', () => {
  it('admin at 1440: titled figures that say what they count, revenue after cash orders, and a filter kept in the address', async () => {
    const admin = await server.api.login('admin');
    const stat = (await server.api.get('/api/services/app/Statistic/GetGeneralStatistic', { token: admin })).body.result;
    expect(stat).toMatchObject({ orders: 8, refunded: PRICE, refundsDue: PRICE });
    expect(stat.revenue).toBeCloseTo(8 * PRICE - PRICE, 3);
    const context = await newContext(browser, server.url, { width: 1440, height: 900 });
    const page = await context.newPage();
    await shotOnFailure(page, 'console-data-dashboard-admin', async () => {
      await signIn(page, 'admin');
      await page.waitForURL('**/dashboard');
      await figuresShow(page, 'stat-orders', '8');
      await expect.poll(() => text(page, 'stat-title'), { timeout: 30_000 }).toBe('Statistics · All time · Every brand');
      expect(await text(page, 'stat-revenue')).toBe(formatMoney(8 * PRICE - PRICE));
      expect(await text(page, 'stat-refunded')).toBe(formatMoney(PRICE));
      expect(await text(page, 'stat-refunds-due')).toBe(formatMoney(PRICE));
      // "Customers 0" while 28 exist: both counts, each named
      expect(await text(page, 'stat-customers')).toBe('0');
      expect(await text(page, 'stat-registered-customers')).toBe(String(stat.registeredCustomers));
      expect(stat.registeredCustomers).toBe(28);
      await page.getByText('Customers who ordered', { exact: true }).waitFor();
      await page.getByText('Registered customers', { exact: true }).waitFor();
      // no brand chosen: the scan figures ask for one
      await page.getByRole('region', { name: 'Reward card scans' }).getByText('Choose a brand').waitFor();
      await screenshot(page, 'console-data-dashboard-admin-1440');

      // Period: yesterday had no orders; the address keeps it
      await page.locator('#dashboard-period').selectOption('yesterday');
      await page.waitForURL('**/dashboard?period=yesterday');
      await figuresShow(page, 'stat-orders', '0');
      await expect.poll(() => text(page, 'stat-title'), { timeout: 30_000 }).toMatch(/^Statistics · Yesterday, .+ · Every brand$/);
      // Brand: Dune Bakery (no orders); then Mango Coffee's Salmiya today
      await page.locator('#dashboard-brand').selectOption({ label: 'Dune Bakery' });
      await page.waitForURL('**/dashboard?period=yesterday&brand=8');
      await page.locator('#dashboard-period').selectOption('today');
      await page.waitForURL('**/dashboard?period=today&brand=8');
      await figuresShow(page, 'stat-orders', '0');
      await page.locator('#dashboard-brand').selectOption({ label: 'Mango Coffee' });
      await page.locator('#dashboard-branch').selectOption({ label: 'Salmiya' });
      await page.waitForURL('**/dashboard?period=today&brand=7&branch=1');
      await figuresShow(page, 'stat-orders', '8');
      await expect.poll(() => text(page, 'stat-title'), { timeout: 30_000 }).toMatch(/^Statistics · Today, .+ · Mango Coffee, Salmiya$/);
      expect(await text(page, 'stat-revenue')).toBe(formatMoney(8 * PRICE - PRICE));
      // the brand's scan figures for the period, as the server counts them
      await page.getByTestId('scans-kinds').waitFor({ timeout: 30_000 });

      // Reload keeps it; Back returns to the previous filters, one by one
      await page.reload();
      await figuresShow(page, 'stat-orders', '8');
      await expect.poll(() => page.locator('#dashboard-branch').inputValue(), { timeout: 30_000 }).toBe('1');
      await page.goBack();
      await page.waitForURL('**/dashboard?period=today&brand=7');
      await page.goBack();
      await page.waitForURL('**/dashboard?period=today&brand=8');
      await figuresShow(page, 'stat-orders', '0');
      await expect.poll(() => page.locator('#dashboard-brand').inputValue(), { timeout: 30_000 }).toBe('8');
      expect(await page.locator('#dashboard-period').inputValue()).toBe('today');
    });
    await context.close();
  }, 180_000);

  it('brand manager at 1024: the brand of the top bar, a branch and last week, and the reward-scan headline figures of SPEC.md 3', async () => {
    const manager = await server.api.login('brandmanager');
    const scans = (await server.api.get('/api/services/app/Statistic/GetCustomerRewardCardScanStatistic', { token: manager, query: { brandId: 7 } })).body.result;
    const context = await newContext(browser, server.url, { width: 1024, height: 768 });
    const page = await context.newPage();
    await shotOnFailure(page, 'console-data-dashboard-brandmanager', async () => {
      await signIn(page, 'brandmanager');
      await page.waitForURL('**/dashboard');
      await figuresShow(page, 'stat-orders', '8');
      expect(await page.locator('#dashboard-brand').count()).toBe(0);
      await expect.poll(() => text(page, 'stat-title'), { timeout: 30_000 }).toBe('Statistics · All time · Mango Coffee');
      // all time: the scan figures equal the server's
      await figuresShow(page, 'scans-scanned', String(scans.scanned));
      expect(await text(page, 'scans-not-scanned')).toBe(String(scans.notScanned));
      expect(await text(page, 'scans-gender')).toContain(`${scans.male} / ${scans.female}`);
      expect(await text(page, 'scans-new-returned')).toBe(`${scans.newCustomers} / ${scans.returnedCustomers}`);
      expect(await text(page, 'scans-kinds')).toBe(`${scans.rewardScans} / ${scans.redemptionScans}`);
      for (const band of ['18-23', '24-30', '31-45', '46+']) await page.getByText(`Aged ${band}`).waitFor();
      await screenshot(page, 'console-data-dashboard-brandmanager-1024');
      // the page fits: no horizontal scroll at 1024
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);

      await page.locator('#dashboard-period').selectOption('lastWeek');
      await page.waitForURL('**/dashboard?period=lastWeek');
      await figuresShow(page, 'stat-orders', '0');
      await expect.poll(() => text(page, 'stat-title'), { timeout: 30_000 }).toMatch(/^Statistics · Last week \(Sunday to Saturday\), .+ – .+ · Mango Coffee$/);
      await page.locator('#dashboard-branch').selectOption({ label: 'Salmiya' });
      await page.waitForURL('**/dashboard?period=lastWeek&branch=1');
      await screenshot(page, 'console-data-dashboard-brandmanager-lastweek-1024');
    });
    await context.close();
  }, 180_000);
});
