import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DESKTOP, newContext, screenshot, signIn } from '../support/browser';
import { alertPlayedAt, guestPlacesOrderFromPage } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * Live order operations in Chromium: a branch user runs /Currentorder while a guest orders from a
 * second browser context (through the gateway, as the shop does); the console sounds the alert,
 * shows the toast and lists the order; the user accepts and closes it. An operator marks a cash
 * order paid on /unpaidorders. The network drops and comes back without losing an order. And the
 * time from saving an order to the alert sound, 50 times.
 */
let guestContext: BrowserContext;
let guestPage: Page;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  guestContext = await newContext(browser, server.url, DESKTOP);
  guestPage = await guestContext.newPage();
  await guestPage.goto('/');
});

/** The guest's side: an order placed from the guest's own page (tests/support/guestOrders.ts). */
const guestPlacesOrder = (opts: { name?: string; carService?: boolean } = {}) => guestPlacesOrderFromPage(guestPage, opts);

async function openScreen(page: Page, path: string, title: string) {
  await page.getByRole('complementary', { name: 'Main menu' }).getByText(title, { exact: true }).click();
  await page.waitForURL(`**${path}`);
  await page.getByRole('heading', { name: title, exact: true }).waitFor();
  await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor();
}

const count = async (page: Page, key: string) => Number(await page.getByTestId(`count-${key}`).getAttribute('data-count'));
const cell = (page: Page, id: number, column: string) => page.locator(`[data-order-id="${id}"][data-column="${column}"]`);
const alertPlays = (page: Page) => page.evaluate(() => window.__alertPlays ?? 0);

/** The order as the staff list answers it (admin). */
async function orderOnServer(id: number) {
  const res = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: await server.api.login('admin'), query: { Search: `#${id}` } });
  return res.body.result.data[0] as { status: string; arrival: string; payment: string; isCash: boolean; paidAt: string | null };
}

async function waitForCount(page: Page, key: string, value: number) {
  await page.locator(`[data-testid="count-${key}"][data-count="${value}"]`).waitFor({ timeout: 15_000 });
}

describe('live order operations in Chromium', () => {
  it('a branch user on /Currentorder hears a guest order, sees it, accepts it and closes it', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    try {
      await signIn(page, 'branchuser');
      await openScreen(page, '/Currentorder', 'Current Orders');
      const [pending, accepted, closed] = [await count(page, 'pending'), await count(page, 'accepted'), await count(page, 'closed')];
      const playsBefore = await alertPlays(page);

      const { id, sentAt } = await guestPlacesOrder({ name: 'Browser Guest' });
      // Timing goals are measured (the latency test below, `npm run bench`), never asserted: a slow machine is not a failure.
      await page.getByText(TEXT.newOrder(id)).waitFor({ timeout: 15_000 });
      await page.waitForFunction((n) => (window.__alertPlays ?? 0) > n, playsBefore, { timeout: 15_000 });
      await screenshot(page, 'console-orders-new-order-toast');
      await cell(page, id, 'status').waitFor({ timeout: 15_000 });
      const listedAfter = Date.now() - sentAt;
      console.log(`new row listed ${listedAfter} ms after the save (goal: under 3000 ms)`);
      // The list refreshes TIMINGS.newOrderRefreshMs after the alert, not at once.
      expect(listedAfter).toBeGreaterThanOrEqual(TIMINGS.newOrderRefreshMs - 200);
      expect(await count(page, 'pending')).toBe(pending + 1);
      // Unread: bold, with a dot.
      expect(await cell(page, id, 'id').getByLabel('Unread').count()).toBe(1);
      await screenshot(page, 'console-orders-new-row');

      await cell(page, id, 'actions').getByRole('button', { name: 'Accept' }).click();
      await page.locator(`[data-order-id="${id}"][data-column="status"] [data-testid="order-status"]`, { hasText: 'Accepted' }).waitFor();
      await waitForCount(page, 'pending', pending);
      await waitForCount(page, 'accepted', accepted + 1);
      expect(await cell(page, id, 'actions').getByRole('button', { name: 'Accept' }).count()).toBe(0);
      await screenshot(page, 'console-orders-accepted');

      // Opening it shows its items and marks it read.
      await cell(page, id, 'customer').click();
      const drawer = page.locator('.order-drawer');
      await drawer.getByTestId('order-items').getByText('Espresso').waitFor();
      await screenshot(page, 'console-orders-drawer');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await page.waitForFunction((oid) => !document.querySelector(`[data-order-id="${oid}"][data-column="id"] [aria-label="Unread"]`), id);

      // A cash order: closing it asks whether the cash was collected (issue 21); Yes pays it in the same step.
      await cell(page, id, 'actions').getByRole('button', { name: 'Close' }).click();
      const cash = page.getByRole('dialog', { name: 'Cash collected?' });
      await cash.waitFor();
      await screenshot(page, 'console-orders-cash-collected-dialog');
      await cash.getByRole('button', { name: 'Yes, collected' }).click();
      await cell(page, id, 'status').waitFor({ state: 'detached' });
      await waitForCount(page, 'accepted', accepted);
      await waitForCount(page, 'closed', closed + 1);
      await screenshot(page, 'console-orders-closed');
      const closedOrder = await orderOnServer(id);
      expect(closedOrder).toMatchObject({ status: 'closed', payment: 'paid', isCash: true });
      expect(closedOrder.paidAt).not.toBeNull();
    } catch (e) {
      await screenshot(page, 'console-orders-branch-failed');
      throw e;
    } finally {
      await context.close();
    }
  });

  it('the alert repeats while the order waits, and stops once it is accepted with the A key (issue 11)', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    // The page's clock is Playwright's: it runs at the real pace, and the test moves it a whole
    // reminder period at a time instead of waiting 15 s for each.
    await page.clock.install();
    try {
      await signIn(page, 'branchuser');
      await openScreen(page, '/Currentorder', 'Current Orders');
      const { id, sentAt } = await guestPlacesOrder({ name: 'Waiting Guest' });
      await page.getByText(TEXT.newOrder(id)).waitFor({ timeout: 15_000 });
      const repeats = (oid: number) => page.evaluate((o) => (window.__alertLog ?? []).filter((e) => e.orderId === o && e.repeat), oid);
      // Rings again after TIMINGS.newOrderRepeatMs, and again.
      for (const n of [1, 2]) {
        await page.clock.fastForward(TIMINGS.newOrderRepeatMs);
        await page.waitForFunction(([o, k]) => (window.__alertLog ?? []).filter((e) => e.orderId === o && e.repeat).length >= k, [id, n] as const, { timeout: 15_000 });
      }
      const rang = await repeats(id);
      console.log(`alert repeats for #${id}: ${rang.map((e) => e.requestedAt - sentAt).join(', ')} ms after the save (every ${TIMINGS.newOrderRepeatMs} ms)`);
      expect(rang[0].requestedAt - sentAt).toBeGreaterThanOrEqual(TIMINGS.newOrderRepeatMs - 500);
      await page.getByText(/is not accepted yet/).first().waitFor();

      // The keys: ? lists them; J selects the newest order (the top row); A accepts it. None acts while typing.
      await page.keyboard.press('Shift+Slash');
      await page.locator('.bp6-hotkey-dialog').getByText('Accept the order').waitFor();
      await screenshot(page, 'console-orders-keys');
      await page.keyboard.press('Escape');
      await page.getByLabel('Search orders').focus();
      await page.keyboard.press('j');
      await page.keyboard.press('a');
      await page.getByLabel('Search orders').fill('');
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      expect(await page.locator(`[data-order-id="${id}"][data-column="status"]`).textContent()).toBe('Pending');
      await page.keyboard.press('j');
      await page.locator(`.order-row-selected [data-order-id="${id}"][data-column="id"]`).waitFor({ timeout: 5_000 });
      await page.keyboard.press('a');
      await page.locator(`[data-order-id="${id}"][data-column="status"] [data-testid="order-status"]`, { hasText: 'Accepted' }).waitFor({ timeout: 15_000 });
      // A check already on its way when the order was accepted may still ring once.
      await page.waitForTimeout(2_000);
      const afterAccept = (await repeats(id)).length;
      // Two full periods later: silent (the checks ran, and found it accepted).
      for (let n = 0; n < 2; n++) await page.clock.fastForward(TIMINGS.newOrderRepeatMs);
      await page.waitForTimeout(2_000);
      expect((await repeats(id)).length).toBe(afterAccept);
    } catch (e) {
      await screenshot(page, 'console-orders-repeat-failed');
      throw e;
    } finally {
      await context.close();
    }
  });

  it('an operator marks a cash order paid on /unpaidorders and it leaves the list', async () => {
    const { id } = await guestPlacesOrder({ name: 'Cash Guest' });
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    try {
      await signIn(page, 'companyadmin');
      await openScreen(page, '/unpaidorders', 'Unpaid Orders');
      await cell(page, id, 'payment').getByText('Unpaid').waitFor();
      await screenshot(page, 'console-orders-unpaid');
      // The screen's purpose is in sight at 1280 px beside the full side menu: no sideways scroll to reach it.
      const button = cell(page, id, 'payment').getByRole('button', { name: 'Mark as paid' });
      const [buttonBox, tableBox] = await Promise.all([button.boundingBox(), page.getByRole('region', { name: 'Orders' }).boundingBox()]);
      expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(tableBox!.x + tableBox!.width);
      await button.click();
      await cell(page, id, 'payment').waitFor({ state: 'detached' });
      // It is paid on the server, and listed as such among all orders.
      await openScreen(page, '/order', 'All Orders');
      await page.getByLabel('Search orders').fill(`#${id}`);
      await page.getByTestId('order-range').getByText('1–1 of 1').waitFor();
      await cell(page, id, 'payment').getByText('Paid', { exact: true }).waitFor();
      await screenshot(page, 'console-orders-all-paid');
    } catch (e) {
      await screenshot(page, 'console-orders-unpaid-failed');
      throw e;
    } finally {
      await context.close();
    }
  });

  it('drive-thru: a car order is accepted, then served, and the served count goes up', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    try {
      await signIn(page, 'branchuser');
      await openScreen(page, '/CurrentDriveThruOrderPage', 'Drive-thru Orders');
      const served = await count(page, 'served');
      const { id } = await guestPlacesOrder({ name: 'Car Guest', carService: true });
      await cell(page, id, 'car').getByText('White Land Cruiser 12345').waitFor({ timeout: 15_000 });
      // Serving needs an accepted order: the order's machine offers no "Served" yet.
      expect(await cell(page, id, 'actions').getByRole('button', { name: 'Served' }).count()).toBe(0);
      await cell(page, id, 'actions').getByRole('button', { name: 'Accept' }).click();
      await cell(page, id, 'actions').getByRole('button', { name: 'Served' }).waitFor();
      await screenshot(page, 'console-orders-drive-thru');
      await cell(page, id, 'actions').getByRole('button', { name: 'Served' }).click();
      // Served without the cash: the order is finished and stays owed, on Unpaid orders.
      await page.getByRole('dialog', { name: 'Cash collected?' }).getByRole('button', { name: 'No, still owed' }).click();
      await cell(page, id, 'status').waitFor({ state: 'detached' });
      await waitForCount(page, 'served', served + 1);
      expect(await orderOnServer(id)).toMatchObject({ status: 'closed', arrival: 'served', payment: 'unpaid' });
      // A branch user has no Unpaid Orders screen: the company admin reads it there as cash owed.
      const admin = await (await newContext(browser, server.url, DESKTOP)).newPage();
      await signIn(admin, 'companyadmin');
      await openScreen(admin, '/unpaidorders', 'Unpaid Orders');
      await cell(admin, id, 'payment').getByTestId('order-payment').getByText('Cash owed').waitFor({ timeout: 15_000 });
      await screenshot(admin, 'console-orders-cash-owed');
      await admin.context().close();
    } catch (e) {
      await screenshot(page, 'console-orders-drive-thru-failed');
      throw e;
    } finally {
      await context.close();
    }
  });

  it('a dropped network shows the offline banner; back online, the order placed meanwhile is announced', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    try {
      await signIn(page, 'branchuser');
      await openScreen(page, '/Currentorder', 'Current Orders');
      await context.setOffline(true);
      await page.getByText(TEXT.offline).waitFor();
      await page.locator('[data-testid="feed-status"][data-status="reconnecting"]').waitFor();
      const { id } = await guestPlacesOrder({ name: 'Offline Guest' });
      await screenshot(page, 'console-orders-offline');
      expect(await page.getByText(TEXT.newOrder(id)).count()).toBe(0);
      await context.setOffline(false);
      await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor({ timeout: 10_000 });
      await page.getByText(TEXT.newOrder(id)).waitFor({ timeout: 15_000 });
      await cell(page, id, 'status').waitFor({ timeout: 15_000 });
      expect(await page.getByText(TEXT.offline).count()).toBe(0);
      const announced = await page.evaluate((oid) => (window.__alertLog ?? []).filter((e) => e.orderId === oid && !e.repeat).length, id);
      expect(announced).toBe(1);
    } catch (e) {
      await screenshot(page, 'console-orders-offline-failed');
      throw e;
    } finally {
      await context.close();
    }
  });

  it('measures the time from saving an order to the alert sound (50 orders)', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    try {
      await signIn(page, 'branchuser');
      await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor();
      const samples: number[] = [];
      for (let i = 0; i < 50; i++) {
        const { id, sentAt } = await guestPlacesOrder({ name: `Bench ${i}` });
        const playedAt = await alertPlayedAt(page, id);
        samples.push(playedAt - sentAt);
      }
      const sorted = [...samples].sort((a, b) => a - b);
      const result = {
        orders: samples.length,
        medianMs: (sorted[24] + sorted[25]) / 2,
        p90Ms: sorted[44],
        worstMs: sorted[49],
        bestMs: sorted[0],
        note: 'SaveNewOrderVS1 sent from a guest page → howler onplay in the console page (same machine clock), embedded PGlite, gateway SSE feed',
      };
      console.log(`alert latency: ${JSON.stringify(result)}`);
      const out = path.resolve('tests/.artifacts/alert-latency.json');
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify({ ...result, samplesMs: samples }, null, 2)}\n`);
      expect(samples).toHaveLength(50);
    } finally {
      await context.close();
    }
  });
});
