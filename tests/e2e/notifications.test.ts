import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Notifications in Chromium (issue 13): a brand manager requests a notification to a group, the
 * admin approves it on /notifications, and a customer of that group sees it in the shop's inbox
 * (the bell's count, the list), once.
 */
const { server, browser } = useServerAndBrowser();

const TITLE = 'Morning club: double punches';
const TEXT = 'Every coffee before 10 am counts twice this week.';

describe('notifications', () => {
  it('brand manager requests, admin approves, the customer reads it in the shop once', async () => {
    const companyAdmin = await server.api.login('companyadmin');
    const group = await server.api.post('/api/services/app/CustomersGroups/CreateNewCustomersGroup', {
      token: companyAdmin, body: { brandId: 7, name: 'Morning club', customerIds: [5] },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(200);

    const manager = await newContext(browser, server.url, DESKTOP);
    const page = await manager.newPage();
    await shotOnFailure(page, 'notifications-request', async () => {
      await signIn(page, 'brandmanager');
      await page.goto('/NotificationRequest');
      await page.getByRole('button', { name: 'New notification request' }).click();
      const form = page.getByRole('form', { name: 'New notification request' });
      await form.waitFor();
      await form.getByLabel('Brand').selectOption({ label: 'Mango Coffee' });
      await form.getByLabel('Send to').selectOption({ label: 'Morning club · 1 customer' });
      await form.getByLabel('Title').fill(TITLE);
      await form.getByLabel('Text').fill(TEXT);
      await screenshot(page, 'notifications-request-form-1280');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      await page.getByText(TITLE).waitFor();
      await page.locator('.bp6-tag', { hasText: 'Waiting for approval' }).waitFor();
      await screenshot(page, 'notifications-request-list-1280');
    });
    await manager.close();

    const admin = await newContext(browser, server.url, DESKTOP);
    const adminPage = await admin.newPage();
    await shotOnFailure(adminPage, 'notifications-approve', async () => {
      await signIn(adminPage, 'admin');
      await adminPage.goto('/notifications');
      await adminPage.getByText(TITLE).waitFor();
      await adminPage.locator('.bp6-tag', { hasText: 'Waiting for approval' }).waitFor();
      await screenshot(adminPage, 'notifications-pending-1280');
      await adminPage.getByRole('button', { name: 'Approve' }).first().click();
      // Approving sends: the confirmation names the notification and its audience first (issue 20/23).
      const confirmation = adminPage.getByTestId('approve-confirmation');
      await confirmation.waitFor();
      expect(await confirmation.textContent()).toMatch(/^Approve the notification ".+" for (\d+ customers? of the group .+|all \d+ customers?) \(.+\)\? It is sent to them at once\.$/);
      await adminPage.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
      await adminPage.locator('.bp6-tag', { hasText: 'Sent to 1' }).waitFor();
      await expect.poll(async () => adminPage.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      // The approved request is among the sent notifications (listed under the requests), with who asked and who sent it.
      await adminPage.reload();
      const sentList = adminPage.locator('[data-resource="sent notification"]');
      await sentList.getByText('Amal Admin (asked by Bader Brand)').waitFor();
      await screenshot(adminPage, 'notifications-approved-1280');
    });
    await admin.close();

    const token = await server.api.login('admin');
    const requests = await server.api.get('/api/services/app/Notifications/GetAllNotificationsRequests', { token, query: { SkipCount: 0, MaxResultCount: 10 } });
    expect(requests.body.result.data[0]).toMatchObject({ title: TITLE, status: 'approved', groupName: 'Morning club', recipients: 1, requestedByName: 'Bader Brand' });

    const phone = await newContext(browser, server.url, PHONE);
    const shop = await phone.newPage();
    await shotOnFailure(shop, 'notifications-inbox', async () => {
      await signIn(shop, 'customer');
      const bell = shop.getByTestId('notification-bell');
      await bell.waitFor({ timeout: 30_000 });
      await expect.poll(() => shop.getByTestId('notification-count').textContent(), { timeout: 30_000 }).toBe('1');
      expect(await bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
      await screenshot(shop, 'notifications-bell-390');
      await bell.click();
      const panel = shop.getByTestId('notification-panel');
      await panel.waitFor();
      await expect.poll(() => panel.getByText(TITLE).count()).toBe(1);
      await panel.getByText(TEXT).waitFor();
      await screenshot(shop, 'notifications-inbox-390');
      await panel.getByTestId('notification-item').filter({ hasText: TITLE }).click();
      await shop.getByTestId('notification-count').waitFor({ state: 'detached' });
      expect(await bell.getAttribute('aria-label')).toBe('Notifications, 0 unread');
      await shop.reload();
      await shop.getByTestId('notification-bell').click();
      await expect.poll(() => shop.getByTestId('notification-panel').getByText(TITLE).count()).toBe(1);
      expect(await shop.getByTestId('notification-count').count()).toBe(0);
      await screenshot(shop, 'notifications-read-390');

      // A long inbox on a phone: the list opens under the header (never over it) and scrolls within the screen.
      const adminToken = await server.api.login('admin');
      for (let i = 1; i <= 12; i++) {
        const r = await server.api.post('/api/services/app/Notifications/SendWebAdminNotifications', {
          token: adminToken, body: { brandId: 7, groupId: group.body.result.id, title: `Weekly note ${i}`, text: 'A longer text that takes two lines on a phone screen, like real news does.' },
        });
        expect(r.status).toBe(200);
      }
      await shop.reload();
      await expect.poll(() => shop.getByTestId('notification-count').textContent(), { timeout: 30_000 }).toBe('12');
      await shop.getByTestId('notification-bell').click();
      const list = shop.getByTestId('notification-panel');
      await list.getByText('Weekly note 12').waitFor();
      const geometry = await list.evaluate((el) => {
        const header = document.querySelector('.shop-header')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        el.scrollTop = el.scrollHeight;
        return { headerBottom: header.bottom, top: box.top, bottom: box.bottom, left: box.left, right: box.right, scrolled: el.scrollTop, inner: el.scrollHeight, outer: el.clientHeight };
      });
      await screenshot(shop, 'notifications-long-inbox-390');
      expect(geometry.top, 'the list starts under the header').toBeGreaterThanOrEqual(geometry.headerBottom);
      expect(geometry.bottom, 'the list ends on the screen').toBeLessThanOrEqual(844);
      expect(geometry.left).toBeGreaterThanOrEqual(0);
      expect(geometry.right).toBeLessThanOrEqual(390);
      expect(geometry.inner, 'the list is longer than the screen').toBeGreaterThan(geometry.outer);
      expect(geometry.scrolled, 'and scrolls within itself').toBeGreaterThan(0);
      await list.getByText(TITLE).scrollIntoViewIfNeeded();
      await screenshot(shop, 'notifications-long-inbox-scrolled-390');
    });
    await phone.close();

    // Those twelve went straight from ADMIN, with no request: /notifications lists them as sent, by whom, to whom.
    const admin2 = await newContext(browser, server.url, DESKTOP);
    const adminPage2 = await admin2.newPage();
    await shotOnFailure(adminPage2, 'notifications-sent-list', async () => {
      await signIn(adminPage2, 'admin');
      await adminPage2.goto('/notifications');
      const sent = adminPage2.locator('[data-resource="sent notification"]');
      await sent.getByText('Weekly note 12').waitFor();
      expect(await sent.getByText('Amal Admin', { exact: true }).count()).toBeGreaterThan(0);
      expect(await sent.getByText('Morning club').count()).toBeGreaterThan(0);
      expect(await sent.locator('.bp6-tag', { hasText: 'Sent to 1' }).count()).toBeGreaterThan(0);
      await screenshot(adminPage2, 'notifications-sent-list-1280');
    });
    await admin2.close();
  }, 300_000);
});
