import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { openNewGroupForm } from '../support/consoleGroups';

/**
 * Groups and pre-invitations in Chromium: a brand manager creates a group on /groups, uploads a
 * CSV of phones with one bad row (the line is named and nothing is listed), fixes the file and
 * uploads it; a new customer then registers with an invited phone (the shop's three registration
 * calls) and appears among the group's customers. Staff then register a customer on
 * /customers/new-customer, first with a taken phone (the form keeps what was typed).
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';
const FILES = path.resolve('tests/.artifacts/files');
const csv = (name: string, text: string) => {
  mkdirSync(FILES, { recursive: true });
  const file = path.join(FILES, name);
  writeFileSync(file, text);
  return file;
};

describe('groups and pre-invitation lists', () => {
  it('a brand manager creates a group, uploads invitations (a bad row first), and an invited phone that registers joins the group', async () => {
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, 'brandmanager');

    await shotOnFailure(page, 'groups-create', async () => {
      await page.goto('/groups');
      await page.getByTestId('groups-tree').getByText('Mango Coffee').waitFor();
      const form = await openNewGroupForm(page);
      await form.getByLabel('Name').fill('Launch guests');
      await screenshot(page, 'groups-new-1280');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached', timeout: 20_000 });
      // The tree reads itself again after the save.
      await page.getByTestId('groups-tree').getByText('Launch guests').waitFor({ timeout: 20_000 });
      await page.getByRole('link', { name: 'Launch guests' }).waitFor();
      await screenshot(page, 'groups-list-1280');
      await page.getByRole('link', { name: 'Launch guests' }).click();
      await page.getByTestId('group-page').waitFor();
    });
    const groupId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(groupId).toBeGreaterThan(0);

    await shotOnFailure(page, 'groups-upload-bad', async () => {
      await page.getByLabel('Upload a CSV of phones').setInputFiles(csv('invites-bad.csv', 'phone\n+96571000001\n7100 0002\n71OO0003\n'));
      const problem = page.getByTestId('upload-problem');
      await problem.getByText('Line 4 is not a valid phone number. Nothing was saved').waitFor({ timeout: 20_000 });
      await screenshot(page, 'groups-upload-bad-row-1280');
    });
    const listed = async () => (await server.api.get(`${API}/PreInvitationLists/GetAllPreInvitationLists?groupId=${groupId}`, { token: await server.api.login('admin') })).body.result.totalCount;
    expect(await listed()).toBe(0);

    await shotOnFailure(page, 'groups-upload-good', async () => {
      await page.getByLabel('Upload a CSV of phones').setInputFiles(csv('invites.csv', 'phone\n+96571000001\n7100 0002\n7100 0003\n'));
      await page.getByText('3 phones added').first().waitFor({ timeout: 20_000 });
      await page.getByRole('region', { name: 'Pre-invitation list' }).getByText('+96571000003').waitFor({ timeout: 20_000 });
      await expect(page.getByTestId('upload-problem').count()).resolves.toBe(0);
      await screenshot(page, 'groups-upload-listed-1280');
    });
    expect(await listed()).toBe(3);

    // A new customer registers in the shop with an invited phone (the shop's three calls).
    const phone = '+96571000002';
    expect((await server.api.post(`${API}/Customer/RegistrateNewUnregisteredUser`, { body: { phoneNumber: phone } })).status).toBe(200);
    const codes = await server.api.get(`${API}/Customer/GetALlconfermationCode?PhoneNumber=71000002`, { token: await server.api.login('admin') });
    const code = Number(codes.body.result.data[0].code);
    expect((await server.api.post(`${API}/Customer/ValidateNewUnregisteredUser`, { body: { phoneNumber: phone, validationCode: code } })).status).toBe(200);
    const done = await server.api.post(`${API}/Customer/RegistrateUserFromMobileAppByPhone`, { body: { phoneNumber: phone, fullName: 'Rana Registered', password: 'secret1' } });
    expect(done.status, JSON.stringify(done.body.error)).toBe(200);

    await shotOnFailure(page, 'groups-member-joined', async () => {
      await page.reload();
      await page.getByRole('region', { name: 'Customers' }).getByText('Rana Registered').waitFor({ timeout: 20_000 });
      await page.getByTestId('group-member-count').getByText('1 customer').waitFor();
      await page.getByRole('region', { name: 'Pre-invitation list' }).getByText('Joined').waitFor();
      await screenshot(page, 'groups-member-joined-1280');
    });
    expect(errors).toEqual([]);
  });

  it('staff register a customer on /customers/new-customer; a refusal keeps what was typed', async () => {
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await signIn(page, 'brandmanager');
    await shotOnFailure(page, 'new-customer', async () => {
      await page.goto('/customers');
      await page.getByRole('button', { name: 'New customer' }).click();
      await page.waitForURL('**/customers/new-customer');
      await page.getByLabel('Phone number').fill('5000 0001'); // the seeded customer's phone
      await page.getByLabel('Full name').fill('Walk-in Wafa');
      await page.getByLabel('E-mail (optional)').fill('wafa@example.test');
      await page.getByRole('button', { name: 'Register customer' }).click();
      await page.getByText('A customer or user with this phone number is already registered.').first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'new-customer-refused-1280');
      expect(await page.getByLabel('Full name').inputValue()).toBe('Walk-in Wafa');
      expect(await page.getByLabel('E-mail (optional)').inputValue()).toBe('wafa@example.test');
      await page.getByLabel('Phone number').fill('7200 0001');
      await page.getByRole('button', { name: 'Register customer' }).click();
      await page.waitForURL(/\/customers\/\d+$/, { timeout: 20_000 });
      await page.getByTestId('customer-page').getByText('Walk-in Wafa').waitFor();
      await screenshot(page, 'new-customer-registered-1280');
    });
  });
});
