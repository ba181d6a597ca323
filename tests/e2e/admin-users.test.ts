import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, signIn, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/** Staff users in Chromium: a company admin creates a branch user; a brand manager of two brands switches brand. */
const { server, browser } = useServerAndBrowser();


const step = <T>(page: Page, name: string, work: () => Promise<T>) => shotOnFailure(page, `admin-users-${name}`, work);

describe('staff users in the console', () => {
  it('a company admin creates a branch user for branch 1, who then signs in and runs its orders', async () => {
    const t0 = Date.now();
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await signIn(page, 'companyadmin');
    await page.goto('/branches/users/1');
    await step(page, 'branch-users', async () => {
      await page.getByRole('heading', { name: 'Branch Users' }).waitFor();
      await page.getByText('branchuser', { exact: true }).waitFor();
    });
    await page.getByRole('button', { name: 'New branch user' }).click();
    const form = page.getByRole('form', { name: 'New branch user' });
    await form.getByLabel('User name').fill('salmiya.night');
    await form.getByLabel('Full name').fill('Huda Night Shift');
    await form.getByLabel('E-mail').fill('huda@brewops.test');
    await form.getByLabel('Password').fill('short');
    await form.getByLabel('Password').blur();
    await form.getByText('Password has at least 6 characters.').waitFor();
    await form.getByLabel('Password').fill('night-shift-1');
    await screenshot(page, 'admin-users-new-branch-user-1280');
    await form.getByRole('button', { name: 'Save' }).click();
    await step(page, 'saved', async () => {
      await form.waitFor({ state: 'detached' });
      await page.getByText('salmiya.night', { exact: true }).waitFor();
    });
    await screenshot(page, 'admin-users-branch-users-1280');
    await context.close();

    // the new user signs in with the password that was set and works in their branch
    const phone = await newContext(browser, server.url, PHONE);
    const own = await phone.newPage();
    await signIn(own, 'salmiya.night', 'night-shift-1');
    // a branch user lands on the orders they run
    await own.waitForURL('**/order');
    await step(own, 'branch-user-orders', async () => {
      await own.getByRole('heading', { name: 'All Orders' }).waitFor();
      await expect.poll(() => own.title()).toBe('All Orders | Brew Ops');
    });
    await screenshot(own, 'admin-users-new-branch-user-orders-390');
    await phone.close();
    console.log(`branch user created and signed in within ${Date.now() - t0} ms`);
  }, 180_000);

  it('a brand manager of two brands switches brand in the top bar, and the user list follows', async () => {
    const admin = await server.api.login('admin');
    const brand = await server.api.post('/api/services/app/Brand/CreateBrand', { token: admin, body: { companyId: 1, name: 'Mango Juice', currencyId: 1 } });
    expect(brand.status, JSON.stringify(brand.body)).toBe(200);
    const juiceId = brand.body.result.id as number;
    const branch = await server.api.post('/api/services/app/Branch/Create', { token: admin, body: { brandId: juiceId, name: 'Juice Hawally' } });
    expect(branch.status, JSON.stringify(branch.body)).toBe(200);
    const added = await server.api.post('/api/services/app/Brand/CreateBrandManagerForBrand', { token: admin, body: { userId: 3, brandId: juiceId } });
    expect(added.body.result.brandIds).toEqual([7, juiceId]);
    const juicer = await server.api.post('/api/services/app/AdminUserManagement/CreateBranchUser', {
      token: admin, body: { userName: 'juice.counter', fullName: 'Juice Counter', password: 'counter-1', branchId: branch.body.result.id },
    });
    expect(juicer.status).toBe(200);

    for (const [size, viewport] of [['1280', DESKTOP], ['390', PHONE]] as const) {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      await signIn(page, 'brandmanager');
      await page.goto('/UserManagement');
      const list = page.locator('.resource-screen');
      // the top bar's select (hidden on a phone, where its icon opens /select_brand) shows the chosen brand
      const brandSwitch = page.locator('.console-brand-switch select');
      await step(page, `bm-list-${size}`, async () => {
        await expect.poll(() => brandSwitch.inputValue()).toBe('7');
        await list.getByText('branchuser', { exact: true }).waitFor();
      });
      expect(await list.getByText('juice.counter', { exact: true }).count()).toBe(0);
      await screenshot(page, `admin-users-bm-mango-${size}`);

      if (size === '1280') await brandSwitch.selectOption(String(juiceId));
      else {
        // on a phone the top bar keeps only the switch's icon, which opens /select_brand
        await page.getByRole('link', { name: 'Switch brand' }).click();
        await page.getByRole('listitem').filter({ hasText: 'Mango Juice' }).getByRole('button', { name: 'Work in this brand' }).click();
        await page.waitForURL('**/dashboard');
        await page.goto('/UserManagement');
      }
      await step(page, `bm-switched-${size}`, async () => {
        await list.getByText('juice.counter', { exact: true }).waitFor();
        await list.getByText('branchuser', { exact: true }).waitFor({ state: 'detached' });
      });
      await screenshot(page, `admin-users-bm-juice-${size}`);

      // the choice persists in the browser
      await page.reload();
      await step(page, `bm-reloaded-${size}`, async () => {
        await list.getByText('juice.counter', { exact: true }).waitFor();
        expect(await brandSwitch.inputValue()).toBe(String(juiceId));
      });

      // /select_brand switches back
      await page.goto('/select_brand');
      await page.getByRole('listitem').filter({ hasText: 'Mango Coffee' }).getByRole('button', { name: 'Work in this brand' }).click();
      await page.waitForURL('**/dashboard');
      await page.goto('/UserManagement');
      await list.getByText('branchuser', { exact: true }).waitFor();
      await page.goto('/select_brand');
      await page.getByRole('listitem').filter({ hasText: 'Mango Coffee' }).getByText('Current brand').waitFor();
      await screenshot(page, `admin-users-select-brand-${size}`);
      await context.close();
    }
  }, 240_000);
});
