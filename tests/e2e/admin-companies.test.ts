import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * /companies and /brands in Chromium: an admin creates a company with a logo, pauses it and shuts
 * it out (the row's style follows, SPEC.md 4 and 8); a company admin creates a brand on /brands/new.
 */
let logo: Buffer;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  logo = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#e07b39' } }).png().toBuffer();
});


/** The cells of the row showing `name` (Table2 renders a row as cells of one row index). */
const rowCells = (page: Page, id: number) => page.locator(`.bp6-table-cell:has([data-row-id="${id}"])`);
const timed = async <T>(what: string, work: () => Promise<T>) => {
  const started = Date.now();
  try { return await work(); } finally { console.log(`${what}: ${Date.now() - started} ms`); }
};

describe('companies and brands in the console', () => {
  it('an admin creates a company with a logo upload, then pauses it, and its row shows the warning style', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await signIn(page, 'admin');
    await page.goto('/companies');
    await page.getByRole('region', { name: 'Companies' }).getByText('Mango Hospitality').waitFor();

    await page.getByRole('button', { name: 'New company' }).click();
    const form = page.getByRole('form', { name: 'New company' });
    await form.getByLabel('Name').fill('Gulf Roasters');
    await form.getByLabel('Category').selectOption({ label: 'Coffee & Café' });
    await timed('logo upload', async () => {
      await form.locator('#field-logoUrl').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await form.locator('img.resource-image-preview').first().waitFor();
    });
    const logoUrl = await form.locator('img.resource-image-preview').first().getAttribute('src');
    expect(logoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    await screenshot(page, 'admin-companies-new-1280');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    const admin = await server.api.login('admin');
    const list = await server.api.get('/api/services/app/Company/GetAllCompanies', { token: admin, query: { name: 'Gulf Roasters' } });
    const company = list.body.result.data[0];
    expect(company).toMatchObject({ name: 'Gulf Roasters', categoryId: 1, accessible: true, paused: false, logoUrl });
    // the stored logo is served
    expect((await fetch(`${server.url}${logoUrl}`)).status).toBe(200);

    const cells = rowCells(page, company.id);
    await cells.first().waitFor();
    await expect.poll(() => cells.first().getAttribute('class')).not.toMatch(/resource-row-(warning|error)/);
    await page.getByRole('switch', { name: 'Pause: Gulf Roasters' }).click({ force: true });
    await expect.poll(() => cells.first().getAttribute('class'), { timeout: 20_000 }).toMatch(/resource-row-warning/);
    expect((await server.api.get('/api/services/app/Company/GetCompanyById', { token: admin, query: { companyId: company.id } })).body.result.paused).toBe(true);
    await screenshot(page, 'admin-companies-paused-1280');

    await page.getByRole('switch', { name: 'Access: Gulf Roasters' }).click({ force: true });
    await page.getByText('Company was remove access').waitFor();
    await expect.poll(() => cells.first().getAttribute('class'), { timeout: 20_000 }).toMatch(/resource-row-error/);
    await screenshot(page, 'admin-companies-no-access-1280');
    await context.close();

    // a phone: the list scrolls to every row and column
    const phone = await newContext(browser, server.url, PHONE);
    const small = await phone.newPage();
    await signIn(small, 'admin');
    await small.goto('/companies');
    const table = small.getByRole('region', { name: 'Companies' });
    await table.getByText('Gulf Roasters').waitFor();
    await table.getByText('Gulf Roasters').scrollIntoViewIfNeeded();
    await screenshot(small, 'admin-companies-390');
    await small.getByRole('button', { name: 'Edit company 1', exact: true }).scrollIntoViewIfNeeded();
    expect(await small.getByRole('button', { name: 'Edit company 1', exact: true }).isVisible()).toBe(true);
    await phone.close();
  });

  it('a company admin creates a brand on /brands/new: the company is theirs, the logo uploaded', async () => {
    for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      await signIn(page, 'companyadmin');
      await page.goto('/brands/new');
      const form = page.getByRole('form', { name: 'New brand' });
      await form.waitFor();
      const name = `Mango Tea ${size}`;
      await form.getByLabel(/^Name/).fill(name);
      // fixed to their own company
      await expect.poll(() => form.getByLabel('Company').inputValue()).toBe('1');
      expect(await form.getByLabel('Company').isDisabled()).toBe(true);
      await form.getByLabel('Currency').selectOption({ label: 'KD — Kuwaiti Dinar' });
      await form.locator('#field-logoUrl').setInputFiles({ name: 'tea.png', mimeType: 'image/png', buffer: logo });
      await form.locator('img.resource-image-preview').first().waitFor();
      await screenshot(page, `companyadmin-brand-new-${size}`);
      // on a phone the form scrolls to its Save button
      const save = form.getByRole('button', { name: 'Save' });
      await save.scrollIntoViewIfNeeded();
      await save.click();
      await page.waitForURL('**/brands');
      await page.getByRole('region', { name: 'Brands' }).getByText(name).waitFor();
      await screenshot(page, `companyadmin-brands-${size}`);

      const token = await server.api.login('companyadmin');
      const brands = (await server.api.get('/api/services/app/Brand/GetBrandsForCurrentUser', { token })).body.result as { name: string; companyId: number; logoUrl: string; currencyId: number }[];
      expect(brands.find((b) => b.name === name)).toMatchObject({ companyId: 1, currencyId: 1, logoUrl: expect.stringMatching(/^\/uploads\//) });

      // their company's page: the company, then its brands
      await page.goto('/companies/1');
      await page.getByRole('region', { name: 'Company' }).getByText('Mango Hospitality').waitFor();
      await page.getByRole('region', { name: 'Brands' }).getByText(name).waitFor();
      await page.getByRole('region', { name: 'Company' }).getByText('Coffee & Café').waitFor();
      await page.getByRole('region', { name: 'Brands' }).getByText('KD').first().waitFor();
      await screenshot(page, `companyadmin-company-${size}`);
      await context.close();
    }
  });
});
