import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 23, in Chromium at 1440 and 1024 px: a resource screen keeps its search, filters, sorting
 * and page in the address, as the order screens do. Search, filter, sort, page size and page 2;
 * a reload shows the same list; Back walks the steps back one by one (typing was one step, not
 * one per letter). On the brand's taxes (company admin) and /companies (admin), whose Pause and
 * Access switches name what they control and show their state, never "Paused" beside an off switch.
 */
const { server, openPage } = useServerAndBrowser();
const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;
const two = (n: number) => String(n).padStart(2, '0');

beforeAll(async () => {
  const admin = await server.api.login('admin');
  // 24 taxes of Mango Coffee beside the seed's VAT, the even ones active; 24 companies, the odd ones paused.
  for (let n = 1; n <= 24; n++) {
    const tax = await server.api.post('/api/services/app/Tax/Create', { token: admin, body: { brandId: 7, name: `Rate ${two(n)}`, percent: 1, isActive: n % 2 === 0 } });
    expect(tax.status).toBe(200);
    const company = await server.api.post('/api/services/app/Company/Create', { token: admin, body: { name: `Roastery ${two(n)}`, categoryId: 1 } });
    expect(company.status).toBe(200);
    if (n % 2) {
      const paused = await server.api.post('/api/services/app/Company/ChangeCompanyPauseStatus', { token: admin, body: { companyId: company.body.result.id, paused: true } });
      expect(paused.status).toBe(200);
    }
  }
});

/** The list as it stands: the names shown, the pager's words, the search box, the address. */
async function listState(page: Page, title: string) {
  const region = page.getByRole('region', { name: title });
  return {
    names: await region.locator('[data-column="name"]').allInnerTexts(),
    pager: await page.locator('.resource-pager [aria-live]').innerText(),
    search: await page.locator('.resource-search input').inputValue(),
    address: new URL(page.url()).search,
  };
}
/** Waits until the list shows `pager` (the page has settled on a view), then reads it. */
async function settled(page: Page, title: string, pager: string) {
  await expect.poll(() => page.locator('.resource-pager [aria-live]').innerText(), { timeout: 30_000 }).toBe(pager);
  await expect.poll(async () => (await page.getByRole('region', { name: title }).getAttribute('aria-busy')) ?? 'false').toBe('false');
  return listState(page, title);
}
/** Table2 draws the header in more than one quadrant: the one on top takes the pointer. */
const sortByName = (page: Page) => page.locator('.bp6-table-quadrant-top').getByRole('button', { name: 'Sort by Name' });
/** Waits until the list shows all of `expected` (a Back reads the list again: the rows follow the address). */
async function showing(page: Page, title: string, expected: Partial<Awaited<ReturnType<typeof listState>>>) {
  await expect.poll(() => listState(page, title), { timeout: 30_000 }).toMatchObject(expected);
}
const desc = (from: number, to: number, step = 2) => Array.from({ length: Math.floor((from - to) / step) + 1 }, (_, i) => `Rate ${two(from - i * step)}`);

describe('a resource screen keeps its view in the address (issue 23)', () => {
  for (const viewport of VIEWPORTS) {
    it(`the brand's taxes at ${viewport.width} px: search, filter, sort, page 2; reload; Back step by step`, async () => {
      const page = await openPage(viewport);
      await signIn(page, 'companyadmin');
      await page.goto('/brands/taxes/7');
      await settled(page, 'Brand Taxes', '1–25 of 25');

      // typed: one history entry for the whole word
      await page.getByLabel('Search by name').pressSequentially('Rate', { delay: 60 });
      await settled(page, 'Brand Taxes', '1–24 of 24');
      await page.getByLabel('State', { exact: true }).selectOption({ label: 'Active' });
      await settled(page, 'Brand Taxes', '1–12 of 12');
      await sortByName(page).click();
      await expect.poll(() => sortByName(page).getAttribute('aria-sort')).toBe('descending');
      await page.getByLabel('Rows per page').selectOption('10');
      await settled(page, 'Brand Taxes', '1–10 of 12');
      await page.getByRole('button', { name: 'Next page' }).click();
      const second = { names: ['Rate 04', 'Rate 02'], pager: '11–12 of 12', search: 'Rate', address: '?q=Rate&isActive=true&sort=name.desc&page=2&size=10' };
      await showing(page, 'Brand Taxes', second);
      await screenshot(page, `resource-url-taxes-page2-${viewport.width}`);

      await page.reload();
      await showing(page, 'Brand Taxes', second);
      expect(await page.getByLabel('State', { exact: true }).locator('option:checked').innerText()).toBe('Active');
      expect(await page.getByLabel('Rows per page').inputValue()).toBe('10');
      expect(await sortByName(page).getAttribute('aria-sort')).toBe('descending');
      await screenshot(page, `resource-url-taxes-reloaded-${viewport.width}`);

      await page.goBack();
      await showing(page, 'Brand Taxes', { pager: '1–10 of 12', names: desc(24, 6), address: '?q=Rate&isActive=true&sort=name.desc&size=10' });
      await page.goBack();
      await showing(page, 'Brand Taxes', { pager: '1–12 of 12', names: desc(24, 2), address: '?q=Rate&isActive=true&sort=name.desc' });
      await page.goBack();
      await showing(page, 'Brand Taxes', { pager: '1–12 of 12', names: desc(24, 2).reverse(), address: '?q=Rate&isActive=true' });
      expect(await sortByName(page).getAttribute('aria-sort')).toBe('ascending');
      await page.goBack();
      await showing(page, 'Brand Taxes', { pager: '1–24 of 24', search: 'Rate', address: '?q=Rate' });
      expect(await page.getByLabel('State', { exact: true }).inputValue()).toBe('');
      // the search was one step: Back leaves it whole
      await page.goBack();
      await showing(page, 'Brand Taxes', { pager: '1–25 of 25', search: '', address: '' });
      expect(new URL(page.url()).pathname).toBe('/brands/taxes/7');
      await page.goForward();
      await showing(page, 'Brand Taxes', { pager: '1–24 of 24', search: 'Rate', address: '?q=Rate' });
      await screenshot(page, `resource-url-taxes-forward-${viewport.width}`);
    });

    it(`/companies at ${viewport.width} px: search, the Pause filter and page 2 survive a reload and Back; the switches read true`, async () => {
      const page = await openPage(viewport);
      await signIn(page, 'admin');
      await page.goto('/companies?q=Roastery&paused=maybe&page=abc&size=7&sort=secret.up');
      // what the address says wrong is ignored: the search alone stands
      await showing(page, 'Companies', { pager: '1–24 of 24', search: 'Roastery' });
      expect(await page.getByLabel('Pause', { exact: true }).inputValue()).toBe('');

      await page.getByLabel('Pause', { exact: true }).selectOption({ label: 'Running' });
      await settled(page, 'Companies', '1–12 of 12');
      await page.getByLabel('Rows per page').selectOption('10');
      await page.getByRole('button', { name: 'Next page' }).click();
      const second = { names: ['Roastery 22', 'Roastery 24'], pager: '11–12 of 12', search: 'Roastery', address: '?q=Roastery&paused=false&page=2&size=10' };
      await showing(page, 'Companies', second);

      // a running company's switch: named by what it controls, off, and saying "Running"
      const pause = page.getByRole('switch', { name: 'Pause: Roastery 22' });
      expect(await pause.isChecked()).toBe(false);
      const shown = (name: string) => page.locator('.bp6-table-cell').filter({ has: page.getByRole('switch', { name }) }).locator('.bp6-switch-inner-text').filter({ visible: true }).allInnerTexts();
      expect(await shown('Pause: Roastery 22')).toEqual(['Running']);
      expect(await shown('Access: Roastery 22')).toEqual(['Accessible']);
      await screenshot(page, `resource-url-companies-page2-${viewport.width}`);

      await page.reload();
      await showing(page, 'Companies', second);
      expect(await page.getByLabel('Pause', { exact: true }).locator('option:checked').innerText()).toBe('Running');

      await page.goBack();
      await showing(page, 'Companies', { pager: '1–10 of 12', names: ['Roastery 02', 'Roastery 04', 'Roastery 06', 'Roastery 08', 'Roastery 10', 'Roastery 12', 'Roastery 14', 'Roastery 16', 'Roastery 18', 'Roastery 20'], address: '?q=Roastery&paused=false&size=10' });
      await page.goBack();
      await showing(page, 'Companies', { pager: '1–12 of 12', address: '?q=Roastery&paused=false' });
      await page.goBack();
      // the paused ones are back, their switches on and saying so
      await showing(page, 'Companies', { pager: '1–24 of 24', address: '?q=Roastery&paused=maybe&page=abc&size=7&sort=secret.up' });
      expect(await page.getByRole('switch', { name: 'Pause: Roastery 01' }).isChecked()).toBe(true);
      expect(await shown('Pause: Roastery 01')).toEqual(['Paused']);
      expect(await shown('Pause: Roastery 02')).toEqual(['Running']);
      await screenshot(page, `resource-url-companies-back-${viewport.width}`);
    });
  }

  it('an admin flips a company\'s Pause switch: its name stays, its state and its word follow', async () => {
    const page = await openPage(VIEWPORTS[0]);
    await signIn(page, 'admin');
    await page.goto('/companies?q=Roastery%2002');
    await settled(page, 'Companies', '1–1 of 1');
    const pause = page.getByRole('switch', { name: 'Pause: Roastery 02' });
    expect(await pause.isChecked()).toBe(false);
    await pause.click({ force: true });
    await expect.poll(() => pause.isChecked(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => pause.locator('xpath=..').locator('.bp6-switch-inner-text').filter({ visible: true }).allInnerTexts()).toEqual(['Paused']);
    await screenshot(page, 'resource-url-companies-paused-1440');
    await pause.click({ force: true });
    await expect.poll(() => pause.isChecked(), { timeout: 20_000 }).toBe(false);
  });

  it('the tab of a page of lists (/ValidationCode) is in the address: reload keeps it, Back returns', async () => {
    const page = await openPage(VIEWPORTS[1]);
    await signIn(page, 'admin');
    await page.goto('/ValidationCode');
    await page.getByRole('tab', { name: 'Password reset' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=reset');
    await page.reload();
    await expect.poll(() => page.getByRole('tab', { name: 'Password reset' }).getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
    await page.goBack();
    await expect.poll(() => page.getByRole('tab', { name: 'Registration' }).getAttribute('aria-selected')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/ValidationCode');
  });
  it("Back from one brand's taxes to another's shows the first brand's again (the route's place is its own list)", async () => {
    const admin = await server.api.login('admin');
    const dune = await server.api.post('/api/services/app/Tax/Create', { token: admin, body: { brandId: 8, name: 'Dune levy', percent: 2, isActive: true } });
    expect(dune.status).toBe(200);
    const page = await openPage(VIEWPORTS[0]);
    await signIn(page, 'admin');
    await page.goto('/brands/taxes/7?q=VAT');
    await showing(page, 'Brand Taxes', { names: ['VAT'], search: 'VAT' });
    // To brand 8's taxes inside the app (no page load), as a link would, then Back.
    await page.evaluate(() => history.pushState(null, '', '/brands/taxes/8'));
    await showing(page, 'Brand Taxes', { names: ['Dune levy'], search: '' });
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/brands/taxes/7');
    await showing(page, 'Brand Taxes', { names: ['VAT'], search: 'VAT', address: '?q=VAT' });
    await screenshot(page, 'resource-url-taxes-back-to-brand-7-1440');
  });
});
