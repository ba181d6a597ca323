import { describe, expect, it } from 'vitest';
import { screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { addByPhone, brandCustomer, decisionButton, oneNotice } from '../support/consoleGroups';

/**
 * Issue 23's Chromium story, as the brand manager at 1440 px: find Groups in the menu, make a
 * group and add two existing customers by phone; send the group a notification; a second person
 * (the company admin) approves it after a confirmation that names the audience. (The story's
 * points request and the dashboard filtered to last week are further steps of this file.)
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
      await page.getByRole('button', { name: 'New group' }).click();
      const form = page.getByRole('form', { name: 'New group' });
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
});
