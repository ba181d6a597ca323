import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, newContext, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { menuFor } from '../../src/console/pages';

const { server, browser } = useServerAndBrowser();


describe('the running product in Chromium', () => {
  for (const [user, role, fullName, home, title] of [
    ['admin', 'ADMIN', 'Amal Admin', '/dashboard', 'Dashboard'],
    ['branchuser', 'BRANCH_USER', 'Noura Branch', '/order', 'All Orders'],
  ] as const) {
    it(`${user} signs in, lands on ${home} and sees the menu of ${role}`, async () => {
      const context = await newContext(browser, server.url, DESKTOP);
      const page = await context.newPage();
      await signIn(page, user);
      await page.waitForURL(`**${home}`);
      // the title changes when the home screen's chunk has loaded: slow on a loaded machine
      await expect.poll(() => page.title(), { timeout: 30_000 }).toBe(`${title} | Brew Ops`);
      if (home === '/dashboard') await page.getByText(`Welcome, ${fullName}`).waitFor().catch(async (e) => { await screenshot(page, `foundation-${user}-failed`); throw e; });
      else await page.getByRole('heading', { name: title }).waitFor();
      const menu = page.getByRole('complementary', { name: 'Main menu' });
      const labels = await menu.locator('a').allInnerTexts();
      expect(labels.map((l) => l.trim())).toEqual(menuFor(role).map((r) => r.menu!.label));
      await page.getByRole('button', { name: 'User menu' }).click();
      expect(await page.getByTestId('user-role').textContent()).toBe(role);
      expect(await page.getByTestId('user-fullname').textContent()).toBe(fullName);
      await screenshot(page, `foundation-${user}-home`);
      await context.close();
    });
  }

  it('a customer signs in and lands on /profile', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await signIn(page, 'customer');
    await page.waitForURL('**/profile');
    expect(await page.getByTestId('profile-name').textContent()).toBe('Sara Customer');
    await screenshot(page, 'foundation-customer-profile-390');
    await context.close();
  });

  it('the brand picker shows the seeded brands and a branch shows its real products', async () => {
    for (const [name, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('button', { name: /Mango Coffee/ }).waitFor();
      await page.getByRole('button', { name: /Dune Bakery/ }).waitFor();
      await page.getByTestId('product-list').getByText('Cappuccino').waitFor();
      await page.getByRole('button', { name: /Dune Bakery/ }).click();
      await page.getByRole('button', { name: /Jabriya/ }).click();
      await page.getByTestId('product-list').getByText('Karak Tea').waitFor();
      expect(await page.getByTestId('product-list').getByText('Cappuccino').count()).toBe(0);
      await page.waitForURL('**/products');
      await page.getByTestId('product-list').getByText('Karak Tea').waitFor();
      await screenshot(page, `foundation-picker-${name}`);
      await context.close();
    }
  });

  // A phone that is still registering belongs to no brand yet, so only ADMIN reads its code (docs/decisions.md "Hardening: accounts and limits").
  it('an admin reads a registering customer\'s code on /ValidationCode', async () => {
    await server.api.post('/api/services/app/Customer/RegistrateNewUnregisteredUser', { body: { phoneNumber: '+96551234567' } });
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await signIn(page, 'admin');
    await page.waitForURL('**/dashboard');
    await page.getByRole('complementary', { name: 'Main menu' }).getByText('ValidationCode', { exact: true }).click();
    await page.waitForURL('**/ValidationCode');
    await page.getByText('+96551234567', { exact: true }).first().waitFor(); // the code list is a Table2 (grid cells)
    const code = await page.locator('code.console-code').first().textContent();
    expect(code).toMatch(/^\d{6}$/);
    await screenshot(page, 'foundation-validation-codes');
    await context.close();
  });

  it('an unknown route shows the 404 page with a link home', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back home' }).click();
    await page.waitForURL(server.url + '/');
    await context.close();
  });
});
