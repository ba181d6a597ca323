import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { cloudPrntPrinter } from '../support/simulatedPrinter';
import { useServerAndBrowser } from '../support/harness';
import { TEXT } from '../../domain/constants';
import { TICKET_WIDTH } from '../../server/printing/render';

/**
 * Issue 25, the browser story: a brand manager turns on auto-accept for Salmiya and adds a Star
 * CloudPRNT printer on /branches/printers/1, copying its URL into a simulated printer that polls
 * like the device. A guest orders from the shop; nobody clicks anything in the console, yet the
 * branch user's /order shows the order accepted (after the new-order alert), and the printer
 * receives exactly one job, confirms it, and the order's drawer says it printed. A second printer
 * that never polls shows as offline on the order screen.
 */
const { server, browser } = useServerAndBrowser();

const cell = (page: Page, id: number, column: string) => page.locator(`[data-order-id="${id}"][data-column="${column}"]`);

describe('a branch with auto-accept and a cloud printer', () => {
  it('takes an order from the shop without a click and prints one ticket', async () => {
    // ── the brand manager sets the branch up ──
    const manager = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const url = await shotOnFailure(manager, 'printers-setup', async () => {
      await signIn(manager, 'brandmanager');
      // From the branches list, as a manager finds it.
      await manager.goto('/branches');
      await manager.getByRole('link', { name: 'Printers and orders of Salmiya' }).click();
      await manager.waitForURL('**/branches/printers/1');
      await manager.getByRole('heading', { name: 'Printers and orders · Salmiya' }).waitFor();
      await manager.getByText('No printer yet').waitFor();
      await manager.getByLabel('Accept new orders automatically').check({ force: true });
      await manager.getByLabel('Reject an order nobody accepted after').fill('7');
      await manager.getByRole('button', { name: 'Save' }).click();
      await manager.getByText('New orders are accepted at once.').waitFor();

      const add = manager.getByRole('region', { name: 'Add a printer' }).or(manager.locator('[aria-label="Add a printer"]'));
      await add.getByLabel('Name').fill('Bar');
      await add.getByLabel('Coffee').check({ force: true });
      await add.getByRole('button', { name: 'Add printer' }).click();
      await manager.getByTestId('printer-url').first().waitFor();
      await add.getByLabel('Name').fill('Kitchen');
      await add.getByLabel('Protocol').selectOption('epsonServerDirect');
      await add.getByLabel('Food').check({ force: true });
      await add.getByRole('button', { name: 'Add printer' }).click();
      await manager.getByTestId('printer-url').nth(1).waitFor();
      const rows = manager.locator('table[aria-label="Kitchen printers"] tbody tr');
      expect(await rows.count()).toBe(2);
      const barRow = rows.filter({ hasText: 'Bar' });
      expect(await barRow.textContent()).toContain('Star CloudPRNT');
      expect(await barRow.textContent()).toContain('Coffee');
      expect(await barRow.getByText('Offline').count()).toBe(1);
      const barUrl = (await barRow.getByTestId('printer-url').textContent())!;
      expect(barUrl).toMatch(new RegExp(`^${server.url}/printing/cloudprnt/[A-Za-z0-9_-]{32}$`));
      await screenshot(manager, 'printers-page-setup');
      return barUrl;
    });
    const settings = await server.api.get('/api/services/app/Branch/GetBranchesForCurrentUser', {
      token: await server.api.login('brandmanager'), query: { SkipCount: 0, MaxResultCount: 1, id: 1 },
    });
    expect(settings.body.result.data[0]).toMatchObject({ autoAccept: true, acceptanceDeadlineMinutes: 7 });

    // The printer is switched on: its first poll finds nothing to print and makes it online.
    const printer = cloudPrntPrinter(url);
    expect(await printer.round()).toBeNull();
    await manager.reload();
    await manager.locator('table[aria-label="Kitchen printers"] tbody tr', { hasText: 'Bar' }).getByText('Online').waitFor();
    await manager.getByLabel('Coffee').waitFor(); // the brand's product types, read after the branch
    await screenshot(manager, 'printers-page-online');

    // ── the branch user watches /order and clicks nothing ──
    const branch = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await signIn(branch, 'branchuser');
    await branch.waitForURL('**/order');
    await branch.locator('[data-testid="feed-status"][data-status="live"]').waitFor({ timeout: 30_000 });
    const status = branch.getByTestId('printer-status');
    await status.waitFor();
    expect(await status.textContent()).toContain('1 online');
    expect(await status.textContent()).toContain('Kitchen offline');
    await screenshot(branch, 'printers-order-screen-offline');

    // ── a guest orders an Espresso for pick-up, cash at the branch ──
    const shop = await (await newContext(browser, server.url, PHONE)).newPage();
    const orderId = await shotOnFailure(shop, 'printers-shop', async () => {
      await shop.goto('/');
      const brand = shop.getByRole('button', { name: /Mango Coffee/ });
      await brand.waitFor();
      if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
      await shop.getByRole('button', { name: /Salmiya/ }).click();
      await shop.waitForURL('**/products');
      await shop.getByTestId('product-list').getByRole('link', { name: /^Espresso/ }).click();
      await shop.getByRole('button', { name: /Add to Cart/ }).click();
      await shop.waitForURL('**/products');
      await shop.getByRole('link', { name: /View Cart/ }).click();
      await shop.getByRole('link', { name: 'Checkout as guest' }).click();
      await shop.waitForURL('**/check-out');
      await shop.getByLabel('Name').fill('Printer Guest');
      await shop.getByLabel('Phone').fill('5000 0025');
      await shop.getByLabel('Phone').blur();
      await shop.getByRole('button', { name: 'Place order' }).click();
      await shop.waitForURL('**/track-order?**');
      return Number(new URL(shop.url()).searchParams.get('orderId'));
    });

    await shotOnFailure(branch, 'printers-auto-accepted', async () => {
      // The alert still comes, and the order is listed already accepted: nobody clicked Accept.
      await branch.getByText(TEXT.newOrder(orderId)).waitFor({ timeout: 20_000 });
      await cell(branch, orderId, 'status').locator('[data-testid="order-status"]', { hasText: 'Accepted' }).waitFor({ timeout: 20_000 });
      expect(await cell(branch, orderId, 'actions').getByRole('button', { name: 'Accept' }).count()).toBe(0);
      await screenshot(branch, 'printers-order-auto-accepted');
    });
    // The guest's tracker says accepted too.
    await shop.locator('[data-testid="order-progress"][data-status="accepted"]').waitFor({ timeout: 20_000 });
    await screenshot(shop, 'printers-guest-tracker-accepted-390');

    // ── the printer polls: exactly one job, a picture of the ticket, confirmed ──
    const job = await printer.round();
    expect(job).not.toBeNull();
    expect(job!.contentType).toBe('image/png');
    expect((await sharp(job!.body).metadata()).width).toBe(TICKET_WIDTH);
    expect(await printer.round()).toBeNull();
    expect(printer.received).toHaveLength(1);

    await shotOnFailure(branch, 'printers-drawer', async () => {
      await cell(branch, orderId, 'customer').click();
      const drawer = branch.locator('.order-drawer');
      await drawer.locator('[data-testid="print-job"][data-status="done"]', { hasText: 'Bar: printed' }).waitFor({ timeout: 15_000 });
      expect(await drawer.getByTestId('print-job').count()).toBe(1);
      await screenshot(branch, 'printers-drawer-printed');
      // A reprint is an explicit new job, printed once more.
      await drawer.getByTestId('reprint').click();
      await drawer.locator('[data-testid="print-job"]', { hasText: 'Bar (reprint): waiting' }).waitFor({ timeout: 15_000 });
    });
    expect(await printer.round()).not.toBeNull();
    expect(await printer.round()).toBeNull();
    expect(printer.received).toHaveLength(2);
  });
});
