import { describe, expect, it } from 'vitest';
import { screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { addByPhone, brandCustomer, decisionButton, oneNotice, openNewGroupForm, toasts } from '../support/consoleGroups';

/**
 * Issue 23's Chromium story, as the brand manager at 1440 px: find Groups in the menu, make a
 * group and add two existing customers by phone; send the group a notification; a second person
 * (the company admin) approves it after a confirmation that names the audience; grant a customer
 * points through a request that the company admin approves after a confirmation naming the amount;
 * see the dashboard filtered to last week.
 */
const { server, openPage } = useServerAndBrowser();
const VIEWPORT = { width: 1440, height: 900 } as const;

describe("issue 23's story, as the brand manager", () => {
  it('groups: two existing customers added by phone; a notification to the group, approved by the company admin after naming the audience', async () => {
    const customers = [await brandCustomer(server, 'Dana Story'), await brandCustomer(server, 'Faisal Story')];
    const page = await openPage(VIEWPORT);
    await signIn(page, 'brandmanager');
    const menu = page.getByRole('complementary', { name: 'Main menu' });

    await shotOnFailure(page, 'story-group', async () => {
      await menu.locator('a[href="/groups"]').click();
      await page.getByTestId('groups-tree').getByText('Mango Coffee').waitFor();
      const form = await openNewGroupForm(page);
      await form.getByLabel('Name').fill('Story regulars');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached', timeout: 20_000 });
      await page.getByRole('link', { name: 'Story regulars' }).click();
      await page.getByTestId('group-page').waitFor();
      for (const c of customers) await addByPhone(page, c);
      await page.getByTestId('group-member-count').getByText('2 customers').waitFor();
      await screenshot(page, 'story-group-1440');
    });

    const title = 'Story night';
    await shotOnFailure(page, 'story-ask', async () => {
      await menu.locator('a[href="/NotificationRequest"]').click();
      await page.getByRole('button', { name: 'New notification request' }).click();
      const form = page.getByRole('form', { name: 'New notification request' });
      await form.getByLabel('Brand').selectOption({ label: 'Mango Coffee' });
      await form.getByLabel('Send to').selectOption({ label: 'Story regulars · 2 customers' });
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Text').fill('Double points tonight.');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      await page.locator('.bp6-tag', { hasText: 'Waiting for approval' }).first().waitFor();
      await screenshot(page, 'story-asked-1440');
    });

    const second = await openPage(VIEWPORT);
    await signIn(second, 'companyadmin');
    await shotOnFailure(second, 'story-approve', async () => {
      await second.getByRole('complementary', { name: 'Main menu' }).locator('a[href="/notifications"]').click();
      await second.locator('[data-resource="notification request"]').getByText(title).waitFor();
      await (await decisionButton(second, title, 'Approve')).click();
      const confirmation = second.getByTestId('approve-confirmation');
      expect(await confirmation.textContent()).toContain('for 2 customers of the group Story regulars (Mango Coffee)?');
      await screenshot(second, 'story-approve-confirm-1440');
      await second.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
      await oneNotice(second, 'Request approved');
      await second.locator('[data-resource="sent notification"]').locator('.bp6-tag', { hasText: 'Sent to 2' }).first().waitFor();
      await screenshot(second, 'story-sent-1440');
    });
  }, 240_000);

  it('points: a request for 10 points, picked by phone, approved by the company admin after naming the amount; then the dashboard filtered to last week', async () => {
    const customer = await brandCustomer(server, 'Huda Story', '7310');
    const admin = await server.api.login('admin');
    const pointsOf = async () => (await server.api.get('/api/services/app/Customer/GetCustomerWalletPunchesAndFreeItemsDetails', {
      token: admin, query: { CustomerId: customer.id, BrandId: 7 },
    })).body.result.points as number;
    const before = await pointsOf();
    const reason = 'Story: ten points for the survey';
    const page = await openPage(VIEWPORT);
    await signIn(page, 'brandmanager');
    const menu = page.getByRole('complementary', { name: 'Main menu' });

    await shotOnFailure(page, 'story-points-ask', async () => {
      await menu.locator('a[href="/CustomerRequest"]').click();
      await page.getByRole('button', { name: 'New request' }).click();
      const form = page.getByRole('form', { name: 'New request' });
      await form.getByRole('combobox', { name: 'Customer' }).fill(customer.local);
      await page.getByRole('option', { name: /Huda Story/ }).click();
      await expect.poll(() => form.getByRole('combobox', { name: 'Brand' }).inputValue()).toBe('Mango Coffee');
      await form.getByLabel('What').selectOption('points');
      await form.getByLabel('How many').fill('10');
      await form.getByLabel('Reason').fill(reason);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached', timeout: 20_000 });
      await page.locator('[data-resource="request"] [data-column="reason"]', { hasText: reason }).first().waitFor();
      // Their own request waits for someone else.
      expect(await page.locator('[data-resource="request"] [data-column="id"]').getByRole('button', { name: 'Approve' }).count()).toBe(0);
      await screenshot(page, 'story-points-asked-1440');
    });
    expect(await pointsOf()).toBe(before);

    const second = await openPage(VIEWPORT);
    await signIn(second, 'companyadmin');
    await shotOnFailure(second, 'story-points-approve', async () => {
      await second.getByRole('complementary', { name: 'Main menu' }).locator('a[href="/CustomerRequest"]').click();
      const requests = second.locator('[data-resource="request"]');
      const id = await requests.locator('[data-column="reason"]', { hasText: reason }).first().getAttribute('data-row-id');
      await requests.locator(`[data-row-id="${id}"][data-column="id"]`).getByRole('button', { name: 'Approve' }).click();
      const confirmation = second.getByTestId('approve-confirmation');
      await confirmation.waitFor();
      expect(await confirmation.innerText()).toContain('10 points for Huda Story');
      expect(await pointsOf()).toBe(before);
      await screenshot(second, 'story-points-approve-confirm-1440');
      await second.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
      await toasts(second).filter({ hasText: 'Request approved' }).first().waitFor({ timeout: 20_000 });
    });
    await expect.poll(pointsOf).toBe(before + 10);

    await shotOnFailure(page, 'story-dashboard', async () => {
      await menu.locator('a[href="/dashboard"]').click();
      await page.locator('#dashboard-period').selectOption('lastWeek');
      await page.waitForURL('**/dashboard?period=lastWeek');
      await expect.poll(() => page.getByTestId('stat-title').textContent(), { timeout: 30_000 })
        .toMatch(/^Statistics · Last week \(Sunday to Saturday\), .+ – .+ · Mango Coffee$/);
      await screenshot(page, 'story-dashboard-last-week-1440');
      // The filter is the address: a reload keeps it.
      await page.reload();
      await expect.poll(() => page.getByTestId('stat-title').textContent(), { timeout: 30_000 }).toMatch(/^Statistics · Last week/);
    });
  }, 240_000);
});
