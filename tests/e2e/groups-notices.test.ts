import { describe, expect, it } from 'vitest';
import { screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { addByPhone, brandCustomer as brandCustomerOf, decisionButton, findToAdd, oneNotice } from '../support/consoleGroups';

/**
 * Issue 23 in Chromium, at 1440 and 1024 px: a group is filled with existing customers on its page
 * (found by phone, added once, removed after a confirmation naming them); the notification form
 * names each audience's size and offers only the chosen brand's groups; a second person (the
 * company admin) approves a brand manager's notification after a confirmation naming the audience
 * and its size, rejects another with a reason, and each outcome is one notice; a send is listed
 * once on /notifications, among the sent notifications.
 */
const { server, openPage } = useServerAndBrowser();

const API = '/api/services/app';
const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;
const brandCustomer = (fullName: string) => brandCustomerOf(server, fullName);

async function newGroup(token: string, brandId: number, name: string, customerIds?: number[]) {
  const res = customerIds
    ? await server.api.post(`${API}/CustomersGroups/CreateNewCustomersGroup`, { token, body: { brandId, name, customerIds } })
    : await server.api.post(`${API}/CustomersGroups/CreateCustomersGroup`, { token, body: { brandId, name } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result.id as number;
}

describe('groups and notifications (issue 23)', () => {
  for (const viewport of VIEWPORTS) {
    it(`${viewport.width} px: the brand manager finds Groups in the menu, adds two existing customers by phone once each, removes one after a confirmation naming them`, async () => {
      const w = viewport.width;
      const [huda, omar] = [await brandCustomer(`Huda Member ${w}`), await brandCustomer(`Omar Member ${w}`)];
      const manager = await server.api.login('brandmanager');
      await newGroup(manager, 7, `Regulars ${w}`);
      const page = await openPage(viewport);
      await signIn(page, 'brandmanager');

      await shotOnFailure(page, `groups-add-${w}`, async () => {
        await page.getByRole('complementary', { name: 'Main menu' }).locator('a[href="/groups"]').click();
        await page.waitForURL('**/groups');
        await page.getByRole('link', { name: `Regulars ${w}` }).click();
        await page.getByTestId('group-page').waitFor();
        await page.getByTestId('group-member-count').getByText('0 customers').waitFor();

        for (const c of [huda, omar]) await addByPhone(page, c);
        await page.getByTestId('group-member-count').getByText('2 customers').waitFor();
        const members = page.getByRole('region', { name: 'Customers' });
        await members.getByRole('link', { name: huda.fullName }).waitFor();
        await members.getByRole('link', { name: omar.fullName }).waitFor();

        // The same customer again: shown as a member, and not offered a second time.
        const again = await findToAdd(page, huda.local);
        const item = again.getByRole('menuitem', { name: new RegExp(huda.fullName) });
        await item.getByText('In the group').waitFor();
        expect(await item.getAttribute('aria-disabled')).toBe('true');
        await screenshot(page, `groups-add-once-${w}`);
        await page.getByLabel('Add a customer').fill('');

        // The members' list is searched by name.
        await members.getByPlaceholder('Search by name or phone').fill('Omar');
        await expect.poll(() => members.getByRole('link', { name: huda.fullName }).count(), { timeout: 20_000 }).toBe(0);
        await members.getByRole('link', { name: omar.fullName }).waitFor();
        await members.getByPlaceholder('Search by name or phone').fill('');
        await members.getByRole('link', { name: huda.fullName }).waitFor({ timeout: 20_000 });
      });

      await shotOnFailure(page, `groups-remove-${w}`, async () => {
        await page.getByRole('button', { name: `Remove ${huda.fullName}` }).click();
        const confirmation = page.getByTestId('remove-confirmation');
        await confirmation.waitFor();
        expect(await confirmation.textContent()).toContain(`Remove ${huda.fullName} from the group Regulars ${w}?`);
        await screenshot(page, `groups-remove-confirm-${w}`);
        await page.locator('.bp6-alert').getByRole('button', { name: 'Cancel' }).click();
        await confirmation.waitFor({ state: 'detached' });
        expect(await page.getByTestId('group-member-count').textContent()).toBe('2 customers');

        await page.getByRole('button', { name: `Remove ${huda.fullName}` }).click();
        await page.locator('.bp6-alert').getByRole('button', { name: 'Remove' }).click();
        await page.getByTestId('group-member-count').getByText('1 customer').waitFor();
        await expect.poll(() => page.getByRole('region', { name: 'Customers' }).getByRole('link', { name: huda.fullName }).count()).toBe(0);
        await oneNotice(page, `${huda.fullName} was removed from the group.`);
        await screenshot(page, `groups-removed-${w}`);
      });
    }, 240_000);
  }

  it('an admin adding to a brand-7 group is offered only Mango Coffee customers (the others would be refused)', async () => {
    const mango = await brandCustomer('Rana Mango');
    const dune = await server.api.post(`${API}/Customer/Registrate`, {
      token: await server.api.login('admin'), body: { brandId: 8, phoneNumber: '+96573009999', fullName: 'Rana Dune' },
    });
    expect(dune.status).toBe(200);
    const group = await newGroup(await server.api.login('admin'), 7, 'Admin scope');
    const page = await openPage(VIEWPORTS[0]);
    await signIn(page, 'admin');
    await shotOnFailure(page, 'groups-admin-scope', async () => {
      await page.goto(`/groups/${group}`);
      const found = await findToAdd(page, 'Rana');
      await found.getByText('Rana Mango').waitFor();
      expect(await found.getByText('Rana Dune').count()).toBe(0);
      await screenshot(page, 'groups-admin-scope-1440');
      expect(mango.id).toBeGreaterThan(0);
    });
  }, 120_000);

  for (const viewport of VIEWPORTS) {
    it(`${viewport.width} px: the request form names each audience's size, brand by brand; a company admin approves after a confirmation naming it, rejects with a reason; one notice each; a send listed once`, async () => {
      const w = viewport.width;
      const members = [await brandCustomer(`Layla Club ${w}`), await brandCustomer(`Yousef Club ${w}`)];
      const admin = await server.api.login('admin');
      const club = `Club ${w}`;
      await newGroup(admin, 7, club, members.map((m) => m.id));
      await newGroup(admin, 8, `Dune only ${w}`);
      const brandAudience = (await server.api.get(`${API}/Notifications/GetNotificationAudience`, { token: admin, query: { BrandId: 7 } })).body.result as number;
      const title = `Club night ${w}`;
      const rejectedTitle = `Too early ${w}`;

      const page = await openPage(viewport);
      await signIn(page, 'brandmanager');
      await shotOnFailure(page, `notify-ask-${w}`, async () => {
        for (const t of [title, rejectedTitle]) {
          await page.goto('/NotificationRequest');
          await page.getByRole('button', { name: 'New notification request' }).click();
          const form = page.getByRole('form', { name: 'New notification request' });
          await form.waitFor();
          await form.getByLabel('Brand').selectOption({ label: 'Mango Coffee' });
          const target = form.getByLabel('Send to');
          await expect.poll(async () => target.locator('option').allTextContents(), { timeout: 20_000 })
            .toContain(`All the brand's customers · ${brandAudience} customers`);
          const options = await target.locator('option').allTextContents();
          expect(options).toContain(`${club} · 2 customers`);
          expect(options.some((o) => o.startsWith('Dune only')), 'no group of another brand').toBe(false);
          await target.selectOption({ label: `${club} · 2 customers` });
          await form.getByLabel('Title').fill(t);
          await form.getByLabel('Text').fill('Live music from eight.');
          if (t === title) await screenshot(page, `notify-form-${w}`);
          await form.getByRole('button', { name: 'Save' }).click();
          await form.waitFor({ state: 'detached' });
          await page.getByText(t).first().waitFor();
          // A request is announced as one, not as a plain "Saved." (nothing is sent yet).
          if (t === title) await oneNotice(page, 'Request sent for approval');
        }
        // The asker cannot decide their own.
        expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      });
      await page.context().close();

      const second = await openPage(viewport);
      await signIn(second, 'companyadmin');
      await shotOnFailure(second, `notify-approve-${w}`, async () => {
        await second.goto('/notifications');
        const requests = second.locator('[data-resource="notification request"]');
        await requests.getByText(title).waitFor();
        await screenshot(second, `notify-pending-${w}`);
        await (await decisionButton(second, title, 'Approve')).click();
        const confirmation = second.getByTestId('approve-confirmation');
        await confirmation.waitFor();
        expect(await confirmation.textContent()).toBe(`Approve the notification "${title}" for 2 customers of the group ${club} (Mango Coffee)? It is sent to them at once.`);
        await screenshot(second, `notify-approve-confirm-${w}`);
        await second.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
        // Sent: it leaves the requests and is listed once, among the sent notifications, without a reload.
        const sent = second.locator('[data-resource="sent notification"]');
        await sent.getByText(title).waitFor({ timeout: 20_000 });
        await expect.poll(() => requests.getByText(title).count()).toBe(0);
        expect(await sent.locator('.bp6-tag', { hasText: 'Sent to 2' }).count()).toBeGreaterThan(0);
        expect(await second.getByText(title, { exact: true }).count(), 'one send in one place').toBe(1);
        await oneNotice(second, 'Request approved');
        await screenshot(second, `notify-sent-${w}`);

        // Reject asks for a reason; nothing is rejected without one.
        await (await decisionButton(second, rejectedTitle, 'Reject')).click();
        const dialog = second.getByRole('dialog', { name: 'Reject this request?' });
        await dialog.waitFor();
        // The question names the request in full, in the body (the one-line title cut it at 1440 px and below).
        expect(await dialog.getByTestId('reject-question').textContent()).toBe(
          `Reject the notification "${rejectedTitle}" for 2 customers of the group ${club} (Mango Coffee)? Nothing is sent. The reason is kept with the request.`);
        const cut = await dialog.getByTestId('reject-question').evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1);
        expect(cut, 'the question is shown whole').toBe(false);
        expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
        await dialog.getByLabel('Reason').fill('Too early in the morning.');
        await screenshot(second, `notify-reject-reason-${w}`);
        await dialog.getByRole('button', { name: 'Reject' }).click();
        await dialog.waitFor({ state: 'detached' });
        await requests.locator('.bp6-tag', { hasText: 'Rejected' }).first().waitFor();
        await oneNotice(second, 'Request rejected');
      });
      const list = (await server.api.get(`${API}/Notifications/GetAllNotificationsRequests`, { token: admin, query: { MaxResultCount: 100 } })).body.result.data;
      expect(list.find((r: { title: string }) => r.title === title)).toMatchObject({ status: 'approved', decidedBy: 2, recipients: 2 });
      expect(list.find((r: { title: string }) => r.title === rejectedTitle)).toMatchObject({ status: 'rejected', decidedBy: 2, decisionReason: 'Too early in the morning.' });
    }, 240_000);
  }
  it('a reason being typed survives the list changing under it: a colleague decides the request above, the list is read again, and the reject goes to the request asked about', async () => {
    const manager = await server.api.login('brandmanager');
    const ask = async (title: string) => {
      const res = await server.api.post(`${API}/Notifications/NotificationsRequests`, { token: manager, body: { brandId: 7, title, text: 'Two deciders at once.' } });
      expect(res.status, JSON.stringify(res.body.error)).toBe(200);
      return res.body.result.id as number;
    };
    const older = await ask('Older request');
    const newer = await ask('Newer request');
    const page = await openPage(VIEWPORTS[0]);
    await signIn(page, 'companyadmin');
    await shotOnFailure(page, 'notify-list-changes', async () => {
      await page.goto('/notifications');
      const requests = page.locator('[data-resource="notification request"]');
      await requests.getByText('Newer request').waitFor();
      // Newest first: the older request is the second row, and its cell the one that moves.
      await (await decisionButton(page, 'Older request', 'Reject')).click();
      const dialog = page.getByRole('dialog', { name: 'Reject this request?' });
      expect(await dialog.getByTestId('reject-question').textContent()).toContain('Reject the notification "Older request"');
      await dialog.getByLabel('Reason').fill('Not this week.');
      // Meanwhile ADMIN approves the newer one, and the list is read again (its Refresh, behind the dialog).
      const approved = await server.api.post(`${API}/Notifications/ApproveNotificationsRequests`, { token: await server.api.login('admin'), body: { id: newer } });
      expect(approved.status).toBe(200);
      await page.evaluate(() => (document.querySelector('[data-resource="notification request"] [aria-label="Refresh"]') as HTMLElement).click());
      await expect.poll(() => requests.getByText('Newer request').count()).toBe(0);
      expect(await dialog.getByLabel('Reason').inputValue(), 'the question and what was typed are still there').toBe('Not this week.');
      await screenshot(page, 'notify-list-changed-under-dialog-1440');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.waitFor({ state: 'detached' });
      await oneNotice(page, 'Request rejected');
    });
    const list = (await server.api.get(`${API}/Notifications/GetAllNotificationsRequests`, { token: manager, query: { MaxResultCount: 100 } })).body.result.data as { id: number; status: string; decisionReason: string | null }[];
    expect(list.find((r) => r.id === older)).toMatchObject({ status: 'rejected', decisionReason: 'Not this week.' });
    expect(list.find((r) => r.id === newer)).toMatchObject({ status: 'approved' });
  }, 120_000);
});
