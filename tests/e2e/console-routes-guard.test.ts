import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServerAndBrowser } from '../support/harness';
import { newContext, screenshot, shotOnFailure, signIn, watchGateway } from '../support/browser';

/**
 * Issue 23, the console's routes as each staff role walks them, at 1440 and 1024 px: the new
 * customer page with two brands (it crashed), the brand manager's menu, a refused route that says
 * why, another tenant's id, a not-found customer's one notice, and no screen asking the server for
 * what its user may not have.
 */
const { server, browser } = useServerAndBrowser();

const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;
const REFUSED = 'Required permissions are not granted.';

async function staffPage(user: string, viewport: { width: number; height: number } = VIEWPORTS[0]) {
  const context = await newContext(browser, server.url, viewport);
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

/** The gateway answers that carried the server's refusal, by operation name. */
function refusals(page: Page): string[] {
  const found: string[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/graphql')) return;
    const text = await res.text().catch(() => '');
    if (!text.includes(REFUSED)) return;
    const op = (() => { try { return JSON.parse(res.request().postData() ?? '{}').operationName as string; } catch { return '?'; } })();
    found.push(`${new URL(page.url()).pathname}: ${op ?? '?'}`);
  });
  return found;
}

const consoleToasts = (page: Page) => page.locator('.bp6-toast');
const menuLabels = async (page: Page) =>
  (await page.getByRole('complementary', { name: 'Main menu' }).locator('a').allInnerTexts()).map((l) => l.trim());

describe('console routes (issue 23)', () => {
  it('New customer with two brands: a brand picker, then the form (it crashed with React error #185)', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await staffPage('admin', viewport);
      await shotOnFailure(page, `console-routes-new-customer-${viewport.width}`, async () => {
        await page.goto('/customers/new-customer');
        const picker = page.getByTestId('new-customer-brand-picker');
        await picker.waitFor({ timeout: 30_000 });
        await picker.getByRole('button', { name: 'Mango Coffee' }).waitFor();
        await picker.getByRole('button', { name: 'Dune Bakery' }).waitFor();
        await screenshot(page, `console-routes-new-customer-picker-${viewport.width}`);
        await picker.getByRole('button', { name: 'Dune Bakery' }).click();
        const form = page.getByTestId('new-customer-page');
        await form.getByLabel('Full name').waitFor();
        expect(await form.locator('#new-customer-brandId').inputValue()).toBe('8');
        expect(await page.getByText('Something went wrong').count()).toBe(0);
        await screenshot(page, `console-routes-new-customer-form-${viewport.width}`);
      });
      await page.context().close();
    }
  });

  it("the brand manager's menu holds the brand's loyalty and marketing tools, and reward programs", async () => {
    const page = await staffPage('brandmanager');
    await shotOnFailure(page, 'console-routes-bm-menu', async () => {
      await page.getByRole('complementary', { name: 'Main menu' }).locator('a').first().waitFor({ timeout: 30_000 });
      const labels = await menuLabels(page);
      for (const label of ['Groups', 'News', 'Notifications', 'Notification Request', 'CustomerRequest', 'Request', 'ValidationCode', 'Reward Programs']) {
        expect(labels, label).toContain(label);
      }
      expect(labels).not.toContain('Balance Enquiry');
      expect(labels).not.toContain('Brands');
      await page.getByRole('complementary', { name: 'Main menu' }).getByText('Reward Programs').click();
      const entry = page.getByTestId('reward-programs-entry');
      await entry.getByRole('link', { name: 'Reward programs' }).first().click();
      await page.waitForURL('**/branches/reward-programs/1');
      await screenshot(page, 'console-routes-bm-menu-1440');
    });
    await page.context().close();
  });

  it('a refused route keeps SPEC.md 6 targets and says why, once', async () => {
    for (const viewport of VIEWPORTS) {
      // A brand manager opening /brands lands on / (the shop) with the reason.
      const manager = await staffPage('brandmanager', viewport);
      await shotOnFailure(manager, `console-routes-refused-bm-${viewport.width}`, async () => {
        await manager.goto('/brands');
        await manager.waitForURL((url) => url.pathname === '/');
        const toast = manager.locator('.shop-toast').filter({ hasText: 'Brands is not open to your role' });
        await toast.waitFor({ timeout: 30_000 });
        expect(await toast.count()).toBe(1);
        await screenshot(manager, `console-routes-refused-bm-${viewport.width}`);
      });
      await manager.context().close();
      // A branch user opening a manager route lands on /order with the reason.
      const branch = await staffPage('branchuser', viewport);
      await shotOnFailure(branch, `console-routes-refused-bu-${viewport.width}`, async () => {
        await branch.getByRole('heading', { name: 'All Orders' }).waitFor({ timeout: 30_000 });
        await branch.evaluate(() => { history.pushState(null, '', '/customers'); dispatchEvent(new PopStateEvent('popstate')); });
        await branch.waitForURL('**/order');
        const toast = consoleToasts(branch).filter({ hasText: 'Customers is not open to your role' });
        await toast.waitFor({ timeout: 15_000 });
        expect(await toast.count()).toBe(1);
        await screenshot(branch, `console-routes-refused-bu-${viewport.width}`);
      });
      await branch.context().close();
    }
  });

  it('another tenant\'s id: "Not found, or not yours" with a way back', async () => {
    const page = await staffPage('companyadmin');
    await shotOnFailure(page, 'console-routes-not-yours', async () => {
      for (const [path, back] of [['/brands/edit/8', 'Back to brands'], ['/companies/2', 'Back to the start'], ['/brands/taxes/8', 'Back to brands'], ['/branches/users/2', 'Back to branches']] as const) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Not found, or not yours' }).waitFor({ timeout: 30_000 });
        await page.getByRole('link', { name: back }).waitFor();
        expect(await page.getByText('Something went wrong').count(), path).toBe(0);
        expect(await page.getByRole('button', { name: /^New/ }).count(), path).toBe(0);
      }
      await screenshot(page, 'console-routes-not-yours-1440');
      await page.getByRole('link', { name: 'Back to branches' }).click();
      await page.waitForURL('**/branches');
      // Their own brand opens as before.
      await page.goto('/brands/edit/7');
      await page.getByRole('heading', { name: 'Not found, or not yours' }).waitFor({ state: 'detached', timeout: 30_000 });
    });
    await page.context().close();
  });

  it('a customer that is not found: one notice and a way back', async () => {
    const page = await staffPage('admin');
    await shotOnFailure(page, 'console-routes-customer-not-found', async () => {
      await page.goto('/customers/999999');
      await consoleToasts(page).first().waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1500);
      const texts = await consoleToasts(page).allInnerTexts();
      expect(texts, texts.join(' | ')).toHaveLength(1);
      expect(texts[0]).toContain('Customer not found.');
      await page.getByRole('heading', { name: 'Not found, or not yours' }).waitFor();
      await page.getByRole('link', { name: 'Back to customers' }).waitFor();
      await screenshot(page, 'console-routes-customer-not-found-1440');
    });
    await page.context().close();
  });

  for (const user of ['branchuser', 'brandmanager', 'companyadmin', 'admin']) {
    it(`no screen asks the server for what ${user} may not have (every menu entry and the dashboard)`, async () => {
      const page = await staffPage(user);
      const found = refusals(page);
      const gateway = watchGateway(page);
      // An icon given to Blueprint by name loads its loader and every icon's paths (~590 KB).
      const iconSets: string[] = [];
      page.on('request', (req) => { if (/\/assets\/(allPaths|splitPathsBySizeLoader)/.test(req.url())) iconSets.push(`${new URL(page.url()).pathname}: ${req.url()}`); });
      await shotOnFailure(page, `console-routes-walk-${user}`, async () => {
        const menu = page.getByRole('complementary', { name: 'Main menu' });
        await menu.locator('a').first().waitFor({ timeout: 30_000 });
        for (const label of await menuLabels(page)) {
          await menu.locator('a').filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) }).click();
          await page.locator('main.console-main').filter({ hasNot: page.locator('.console-loading') }).waitFor();
          await gateway.quiet(500);
          if (await consoleToasts(page).filter({ hasText: REFUSED }).count()) found.push(`${label}: a red "${REFUSED}" toast`);
        }
        // The top bar's product name opens /dashboard for every staff role.
        await page.locator('.console-brand').click();
        await page.waitForURL('**/dashboard');
        await gateway.quiet(500);
        if (await consoleToasts(page).filter({ hasText: REFUSED }).count()) found.push(`Dashboard: a red "${REFUSED}" toast`);
        if (user === 'branchuser') await screenshot(page, 'console-routes-walk-branchuser-1440');
        expect(found).toEqual([]);
        expect(iconSets).toEqual([]);
      });
      await page.context().close();
    });
  }
});
