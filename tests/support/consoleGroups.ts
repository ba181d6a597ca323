import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { ServerProcess } from './serverProcess';

/**
 * Steps the console's group and notification stories share (tests/e2e/groups-notices.test.ts,
 * tests/e2e/story-brand-manager.test.ts): customers made as staff make them, the group page's
 * add box, the request list's decision buttons, and "announced once".
 */
const API = '/api/services/app';
export const toasts = (page: Page) => page.locator('.bp6-toast');

let phoneSeq = 0;
/** A customer of Mango Coffee (brand 7), registered by the brand manager as staff do; `local` is the 8 local digits. */
export async function brandCustomer(server: ServerProcess, fullName: string, prefix = '7300') {
  const local = `${prefix}${String(++phoneSeq).padStart(4, '0')}`;
  const res = await server.api.post(`${API}/Customer/Registrate`, {
    token: await server.api.login('brandmanager'), body: { brandId: 7, phoneNumber: `+965${local}`, fullName },
  });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return { id: res.body.result.id as number, fullName, local };
}

/** Types a name or phone into the group page's add box and waits for the answer's menu. */
export async function findToAdd(page: Page, text: string) {
  await page.getByLabel('Add a customer').fill(text);
  const found = page.getByRole('menu', { name: 'Customers found' });
  await found.waitFor();
  return found;
}

/** Adds a customer found by their phone (typed as people type it, "7300 0001") and waits for the notice. */
export async function addByPhone(page: Page, customer: { fullName: string; local: string }) {
  const found = await findToAdd(page, `${customer.local.slice(0, 4)} ${customer.local.slice(4)}`);
  await found.getByText(customer.fullName).click();
  await toasts(page).filter({ hasText: `${customer.fullName} is in the group.` }).waitFor();
}

/** The Approve or Reject button in the row of a notification request's title (each cell carries its row's id, ResourceList.tsx). */
export async function decisionButton(page: Page, title: string, name: 'Approve' | 'Reject') {
  const requests = page.locator('[data-resource="notification request"]');
  const id = await requests.locator('[data-column="title"]', { hasText: title }).first().getAttribute('data-row-id');
  return requests.locator(`[data-row-id="${id}"][data-column="id"]`).getByRole('button', { name });
}

/** The outcome is announced once: one notice with this text, and no error or generic "Saved." beside it. */
export async function oneNotice(page: Page, text: string) {
  await toasts(page).filter({ hasText: text }).first().waitFor();
  await page.waitForTimeout(700);
  expect(await toasts(page).filter({ hasText: text }).count(), `one notice: ${text}`).toBe(1);
  expect(await toasts(page).filter({ hasText: /Error|Saved/ }).count(), 'no other notice').toBe(0);
}

/**
 * Opens /groups' "New group" form and waits until its Brand holds the manager's one brand: the
 * select picks it by itself once the brand list has arrived, and a Save before that is refused
 * (Brand is required) and then looks as if nothing happened once the brand fills in.
 */
export async function openNewGroupForm(page: Page) {
  await page.getByRole('button', { name: 'New group' }).click();
  const form = page.getByRole('form', { name: 'New group' });
  await expect.poll(() => form.getByLabel('Brand').inputValue(), { timeout: 20_000 }).not.toBe('');
  return form;
}
