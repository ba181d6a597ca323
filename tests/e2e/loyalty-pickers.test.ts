import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 23, "Loyalty forms take raw internal ids" and "Decisions take one click", in Chromium at
 * 1440 and 1024 px:
 * - /CustomerRequest and /Request: the customer is found by name or phone (keyboard and mouse),
 *   only among the customers the signed-in user may see, and shown by name and phone; the brand by
 *   name; a save the server refuses keeps what was picked.
 * - the constant discount's customer group is found by name among the branch's brand's groups, with
 *   its member count; the list names the group.
 * - a wallet change on /customers/:id asks first, naming the customer and the amount, then one notice.
 * - /Request: an approval names the amount and the customer, a reject asks for a reason, one notice each.
 */
const { server, openPage } = useServerAndBrowser();

const API = '/api/services/app';
const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;
const SARA = { id: 5, name: 'Sara Customer', phone: '+96550000001' };
let duneOnlyId = 0;

async function staffPage(login: string, viewport: { width: number; height: number }) {
  const page = await openPage(viewport);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, login);
  return { page, errors };
}
const toasts = (page: Page) => page.locator('.bp6-toast');

beforeAll(async () => {
  const admin = await server.api.login('admin');
  // A customer of Dune Bakery only (company 2): never offered to Mango Coffee's staff.
  const dune = await server.api.post(`${API}/Customer/Registrate`, { token: admin, body: { brandId: 8, phoneNumber: '+96550000077', fullName: 'Dune Only' } });
  expect(dune.status).toBe(200);
  duneOnlyId = dune.body.result.id;
  const manager = await server.api.login('brandmanager');
  const vip = await server.api.post(`${API}/CustomersGroups/CreateNewCustomersGroup`, { token: manager, body: { brandId: 7, name: 'VIP regulars', customerIds: [SARA.id] } });
  expect(vip.status).toBe(200);
  const other = await server.api.post(`${API}/CustomersGroups/CreateNewCustomersGroup`, { token: admin, body: { brandId: 8, name: 'VIP of Dune', customerIds: [duneOnlyId] } });
  expect(other.status).toBe(200);
}, 60_000);

const requestsOf = async (call: string) =>
  (await server.api.get(`${API}/Customer/${call}`, { token: await server.api.login('admin'), query: { SkipCount: 0, MaxResultCount: 50 } })).body.result.data as
    { id: number; customerId: number; brandId: number; account: string; amount: number; reason: string; status: string }[];

describe('pickers instead of ids (issue 23)', () => {
  for (const viewport of VIEWPORTS) {
    it(`a brand manager asks for points and for wallet money by picking the customer by name or phone (${viewport.width} px)`, async () => {
      const { page, errors } = await staffPage('brandmanager', viewport);
      const w = viewport.width;
      await shotOnFailure(page, `pickers-customer-request-${w}`, async () => {
        await page.goto('/CustomerRequest');
        await page.getByRole('button', { name: 'New request' }).click();
        const form = page.getByRole('form', { name: 'New request' });
        const customer = form.getByRole('combobox', { name: 'Customer' });
        await customer.waitFor();
        // The brand manager's one brand is chosen, by name.
        await expect.poll(() => form.getByRole('combobox', { name: 'Brand' }).inputValue()).toBe('Mango Coffee');

        // Another company's customer is not offered: the server's scope decides.
        await customer.fill('Dune');
        await page.getByRole('listbox', { name: 'Customers' }).getByText('No customer of yours matches.').waitFor();
        await screenshot(page, `pickers-customer-out-of-scope-${w}`);

        // By phone digits, chosen with the keyboard only.
        await customer.fill('50000001');
        const option = page.getByRole('option', { name: /Sara Customer/ });
        await option.waitFor();
        expect(await option.innerText()).toContain(SARA.phone);
        await screenshot(page, `pickers-customer-found-${w}`);
        await customer.press('ArrowDown');
        await customer.press('ArrowUp');
        await customer.press('Enter');
        await expect.poll(() => customer.inputValue()).toBe(`${SARA.name} · ${SARA.phone}`);
        expect(await page.getByRole('listbox').count()).toBe(0);

        // 500 punches pass the form's rule but not the server's ceiling (100 a grant): refused, the picks stay.
        await form.getByLabel('What').selectOption('punches');
        await form.getByLabel('How many').fill('500');
        await form.getByLabel('Reason').fill(`Picker test ${w}`);
        await form.getByRole('button', { name: 'Save' }).click();
        await form.getByRole('alert').or(form.locator('.resource-field-error')).first().waitFor({ timeout: 20_000 });
        expect(await customer.inputValue()).toBe(`${SARA.name} · ${SARA.phone}`);
        expect(await form.getByRole('combobox', { name: 'Brand' }).inputValue()).toBe('Mango Coffee');
        await screenshot(page, `pickers-customer-refused-kept-${w}`);
        await form.getByLabel('How many').fill('4');
        await form.getByRole('button', { name: 'Save' }).click();
        await form.waitFor({ state: 'detached', timeout: 20_000 });
      });
      const asked = (await requestsOf('GetUserPunchesInfoDetail')).find((r) => r.reason === `Picker test ${w}`);
      expect(asked).toMatchObject({ customerId: SARA.id, brandId: 7, account: 'punches', amount: 4, status: 'pending' });

      await shotOnFailure(page, `pickers-balance-request-${w}`, async () => {
        await page.goto('/Request');
        await page.getByRole('button', { name: 'New request' }).click();
        const form = page.getByRole('form', { name: 'New request' });
        const customer = form.getByRole('combobox', { name: 'Customer' });
        // By name, chosen with the mouse.
        await customer.fill('sara');
        await page.getByRole('option', { name: /Sara Customer/ }).click();
        await expect.poll(() => customer.inputValue()).toBe(`${SARA.name} · ${SARA.phone}`);
        await form.getByLabel('What').selectOption('wallet');
        await form.getByLabel('Amount (KD)').fill('5');
        await form.getByLabel('Reason').fill(`Wallet picker ${w}`);
        await screenshot(page, `pickers-balance-request-form-${w}`);
        await form.getByRole('button', { name: 'Save' }).click();
        await form.waitFor({ state: 'detached', timeout: 20_000 });
        await page.locator('.bp6-table-cell, td').filter({ hasText: `Wallet picker ${w}` }).first().waitFor();
      });
      expect((await requestsOf('GetCustomerBalanceRequests')).find((r) => r.reason === `Wallet picker ${w}`))
        .toMatchObject({ customerId: SARA.id, brandId: 7, account: 'wallet', amount: 5, status: 'pending' });
      expect(errors).toEqual([]);
    }, 180_000);

    it(`a constant discount's group is picked by name among the branch's brand's groups, with its member count (${viewport.width} px)`, async () => {
      const { page, errors } = await staffPage('brandmanager', viewport);
      const w = viewport.width;
      const name = `Regulars' discount ${w}`;
      await shotOnFailure(page, `pickers-group-${w}`, async () => {
        await page.goto('/branches/reward-programs/1');
        await page.getByRole('button', { name: 'New constant discount' }).click();
        const form = page.getByRole('form', { name: 'New constant discount' });
        await form.getByLabel('Name').fill(name);
        const group = form.getByRole('combobox', { name: 'Customer group' });
        await group.fill('VIP');
        const list = page.getByRole('listbox', { name: 'Customer groups' });
        await list.getByRole('option', { name: /VIP regulars/ }).waitFor();
        expect(await list.innerText()).toContain('1 customer');
        // Dune Bakery's group is not this branch's brand's.
        expect(await list.getByText('VIP of Dune').count()).toBe(0);
        await screenshot(page, `pickers-group-found-${w}`);
        await group.press('Enter');
        await expect.poll(() => group.inputValue()).toBe('VIP regulars · 1 customer');
        await form.getByLabel('Percent').fill('10');
        await form.getByRole('button', { name: 'Save' }).click();
        await form.waitFor({ state: 'detached', timeout: 20_000 });
        await page.locator('.bp6-table-cell, td').filter({ hasText: 'VIP regulars (1 customer)' }).first().waitFor({ timeout: 20_000 });
        await screenshot(page, `pickers-group-listed-${w}`);
      });
      expect(errors).toEqual([]);
    }, 120_000);
  }
});

describe('decisions ask first and are announced once (issue 23)', () => {
  for (const viewport of VIEWPORTS) {
    it(`a wallet change names the customer and the amount, then one notice (${viewport.width} px)`, async () => {
      const w = viewport.width;
      const admin = await server.api.login('admin');
      const walletOf = async () => Number((await server.api.get(`${API}/Customer/GetCustomerWalletPunchesAndFreeItemsDetails`, {
        token: admin, query: { CustomerId: SARA.id, BrandId: 7 },
      })).body.result.wallet);
      const before = await walletOf();
      const { page, errors } = await staffPage('admin', viewport);
      await shotOnFailure(page, `decisions-wallet-${w}`, async () => {
        await page.goto(`/customers/${SARA.id}`);
        const form = page.getByTestId('adjust-form');
        await form.waitFor();
        await form.getByLabel('Brand').selectOption({ label: 'Mango Coffee' });
        await form.getByLabel('Account').selectOption('wallet');
        await form.getByLabel('New balance (KD)').fill(String(before + 7.5));
        await form.getByLabel('Reason').fill(`Refund of a cold coffee ${w}`);
        await form.getByRole('button', { name: 'Save adjustment' }).click();
        const confirmation = page.getByTestId('adjust-confirmation');
        await confirmation.waitFor();
        const text = await confirmation.innerText();
        expect(text).toContain(SARA.name);
        expect(text).toContain('+7.500 KD');
        expect(await walletOf()).toBe(before);
        await screenshot(page, `decisions-wallet-confirm-${w}`);
        await page.locator('.bp6-alert').getByRole('button', { name: 'Confirm' }).click();
        await toasts(page).first().waitFor({ timeout: 20_000 });
        await page.waitForTimeout(800);
        expect(await toasts(page).count()).toBe(1);
        expect(await toasts(page).first().innerText()).toContain('+7.500 KD');
        await screenshot(page, `decisions-wallet-saved-${w}`);
      });
      expect(await walletOf()).toBe(before + 7.5);
      expect(errors).toEqual([]);
    }, 120_000);

    it(`/Request: approve names the amount and the customer, reject asks for a reason; one notice each (${viewport.width} px)`, async () => {
      const w = viewport.width;
      const manager = await server.api.login('brandmanager');
      for (const [amount, reason] of [[2.25, `Approve me ${w}`], [3, `Reject me ${w}`]] as const) {
        const res = await server.api.post(`${API}/Customer/InsertCustomerBalanceRequest`, { token: manager, body: { customerId: SARA.id, brandId: 7, account: 'wallet', amount, reason } });
        expect(res.status).toBe(200);
      }
      const { page, errors } = await staffPage('companyadmin', viewport);
      await shotOnFailure(page, `decisions-request-${w}`, async () => {
        await page.goto('/Request');
        // Newest first: the request to reject is on top, the one to approve under it.
        await page.locator('.bp6-table-cell, td').filter({ hasText: `Reject me ${w}` }).first().waitFor({ timeout: 30_000 });
        await page.getByRole('button', { name: 'Reject' }).first().click();
        const dialog = page.locator('.bp6-dialog');
        await dialog.waitFor();
        expect(await dialog.innerText()).toContain(`Reject 3.000 KD wallet for ${SARA.name}`);
        expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
        await dialog.getByLabel('Reason').fill('Not in the refund policy');
        await screenshot(page, `decisions-request-reject-reason-${w}`);
        await dialog.getByRole('button', { name: 'Reject' }).click();
        await toasts(page).filter({ hasText: 'Request rejected' }).waitFor({ timeout: 20_000 });
        await page.waitForTimeout(800);
        expect(await toasts(page).count()).toBe(1);
        await toasts(page).getByRole('button').first().click();
        await expect.poll(() => toasts(page).count()).toBe(0);

        await page.getByRole('button', { name: 'Approve' }).first().click();
        const confirmation = page.getByTestId('approve-confirmation');
        await confirmation.waitFor();
        expect(await confirmation.innerText()).toContain(`2.250 KD wallet for ${SARA.name}`);
        await screenshot(page, `decisions-request-approve-confirm-${w}`);
        await page.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
        await toasts(page).filter({ hasText: 'Request approved' }).waitFor({ timeout: 20_000 });
        await page.waitForTimeout(800);
        expect(await toasts(page).count()).toBe(1);
        await screenshot(page, `decisions-request-approved-${w}`);
      });
      const decided = await requestsOf('GetCustomerBalanceRequests');
      expect(decided.find((r) => r.reason === `Approve me ${w}`)?.status).toBe('approved');
      expect(decided.find((r) => r.reason === `Reject me ${w}`)?.status).toBe('rejected');
      expect(errors).toEqual([]);
    }, 120_000);
  }
});
