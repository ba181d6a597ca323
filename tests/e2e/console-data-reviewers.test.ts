import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../support/harness';
import { newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { menuFor } from '../../src/console/pages';
import { TEXT } from '../../domain/constants';

/**
 * Issue 23, "The other staff roles": one demo account per reviewer role (server/db/seed.ts), each
 * tried in Chromium at 1440 and 1024 px: what it sees and what it is refused, as SPEC.md 6 says
 * (company and brand reviewers: "Sorry, your company doesn't have permission"; the branch reviewer,
 * of whom the spec says nothing more, has the dashboard's welcome card and nothing else). Fails
 * before: the accounts did not exist (sign-in refused).
 */
const { server, browser } = useServerAndBrowser();

const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;
const API = '/api/services/app';

describe('reviewer roles', () => {
  for (const [user, role] of [['companyreviewer', 'COMPANY_REVIEWER'], ['brandreviewer', 'BRAND_REVIEWER']] as const) {
    it(`${user} (${role}) signs in and sees "${TEXT.reviewerDenied}" on every console page, with a way out; the server refuses its calls`, async () => {
      const token = await server.api.login(user);
      for (const path of ['Statistic/GetGeneralStatistic', 'Customer/GetCustomersAccessibleForCurrentUser', 'PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser']) {
        expect((await server.api.get(`${API}/${path}`, { token })).status, path).toBe(403);
      }
      for (const viewport of VIEWPORTS) {
        const context = await newContext(browser, server.url, viewport);
        const page = await context.newPage();
        await shotOnFailure(page, `console-data-${user}-${viewport.width}`, async () => {
          await signIn(page, user);
          await page.getByText(TEXT.reviewerDenied).waitFor({ timeout: 30_000 });
          expect(new URL(page.url()).pathname).toBe('/dashboard');
          // no menu, no figures
          expect(await page.getByRole('complementary', { name: 'Main menu' }).count()).toBe(0);
          expect(await page.getByRole('region', { name: 'Counts' }).count()).toBe(0);
          await screenshot(page, `console-data-${user}-${viewport.width}`);
          // a console page typed in the address bar: the same notice
          for (const path of ['/customers', '/order', '/brands']) {
            await page.goto(path);
            await page.getByText(TEXT.reviewerDenied).waitFor({ timeout: 30_000 });
            expect(await page.getByRole('table').count(), path).toBe(0);
          }
          await page.getByRole('button', { name: 'Log out' }).click();
          await page.waitForURL('**/login', { timeout: 30_000 });
        });
        await context.close();
      }
    }, 180_000);
  }

  it('branchreviewer (BRANCH_REVIEWER) has the dashboard\'s welcome card, no menu entry and no figures; a console page is refused; the server refuses its calls', async () => {
    const token = await server.api.login('branchreviewer');
    for (const path of ['Statistic/GetStatisticByBrand?brandId=7', 'Customer/GetCustomersAccessibleForCurrentUser', 'QualityReport/GetBranchQualityReport']) {
      expect((await server.api.get(`${API}/${path}`, { token })).status, path).toBe(403);
    }
    expect(menuFor('BRANCH_REVIEWER')).toEqual([]);
    for (const viewport of VIEWPORTS) {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      await shotOnFailure(page, `console-data-branchreviewer-${viewport.width}`, async () => {
        await signIn(page, 'branchreviewer');
        await page.waitForURL('**/dashboard');
        await page.getByText('Welcome, Mariam Reviewer').waitFor({ timeout: 30_000 });
        await page.getByText('BRANCH_REVIEWER', { exact: true }).waitFor();
        await expect.poll(() => page.getByTestId('scope-branch').textContent(), { timeout: 30_000 }).toBe('Salmiya');
        expect(await page.getByText(TEXT.reviewerDenied).count()).toBe(0);
        const menu = page.getByRole('complementary', { name: 'Main menu' });
        if (await menu.count()) expect(await menu.locator('a').count()).toBe(0);
        expect(await page.getByRole('region', { name: 'Counts' }).count()).toBe(0);
        expect(await page.getByRole('region', { name: 'Orders by status' }).count()).toBe(0);
        await screenshot(page, `console-data-branchreviewer-${viewport.width}`);
        // an operator's page: refused, no orders shown
        await page.goto('/order');
        await page.waitForURL((url) => url.pathname !== '/order', { timeout: 30_000 });
        expect(await page.getByRole('table', { name: /orders/i }).count()).toBe(0);
      });
      await context.close();
    }
  }, 180_000);
});
