import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Four eyes in Chromium (issue 20, issue 23 "Decisions take one click"): a brand manager grants a
 * customer 5 points on /customers/5; the console asks for a confirmation naming the customer, the
 * account and the change, and announces once "Request sent for approval"; nothing is added. The
 * brand manager sees no Approve on their own request ("Waiting for another approver"). A company
 * admin approves it on /CustomerRequest after a confirmation naming customer, account and amount;
 * one notice; the points are added once.
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';
const CUSTOMER = 5;
const REASON = 'Five points for the survey';

async function staffPage(login: string) {
  const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, login);
  await page.waitForURL('**/dashboard');
  return { page, errors };
}
const toasts = (page: Page) => page.locator('.bp6-toast');

describe('four eyes on a points grant', () => {
  it('a brand manager asks for 5 points, sees no Approve on it; a company admin approves after a confirmation; one notice each', async () => {
    const admin = await server.api.login('admin');
    const pointsOf = async () => (await server.api.get(`${API}/Customer/GetCustomerWalletPunchesAndFreeItemsDetails`, {
      token: admin, query: { CustomerId: CUSTOMER, BrandId: 7 },
    })).body.result.points as number;
    const before = await pointsOf();

    const manager = await staffPage('brandmanager');
    await shotOnFailure(manager.page, 'four-eyes-grant', async () => {
      const page = manager.page;
      await page.goto(`/customers/${CUSTOMER}`);
      const form = page.getByTestId('adjust-form');
      await form.waitFor();
      await form.getByLabel('Account').selectOption('points');
      await form.getByLabel('New points').fill(String(before + 5));
      await form.getByLabel('Reason').fill(REASON);
      await form.getByRole('button', { name: 'Save adjustment' }).click();
      const confirmation = page.getByTestId('adjust-confirmation');
      await confirmation.waitFor();
      const text = await confirmation.innerText();
      expect(text).toContain('Sara Customer');
      expect(text).toContain(`points ${before} → ${before + 5}`);
      await screenshot(page, 'four-eyes-grant-confirm-1280');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await toasts(page).filter({ hasText: 'Request sent for approval' }).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(500);
      expect(await toasts(page).count()).toBe(1);
      await screenshot(page, 'four-eyes-grant-sent-1280');
      expect(await pointsOf()).toBe(before);

      await page.goto('/CustomerRequest');
      const row = page.locator('.bp6-table-cell, td').filter({ hasText: REASON }).first();
      await row.waitFor();
      await page.getByTestId('request-waiting').first().waitFor();
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      await screenshot(page, 'four-eyes-own-request-1280');
    });
    expect(manager.errors).toEqual([]);

    // A second request, newest first in the list: the company admin rejects it with a reason.
    const lost = await server.api.post(`${API}/Customer/InsertUserPunchesInfoDetail`, {
      token: await server.api.login('brandmanager'), body: { customerId: CUSTOMER, brandId: 7, account: 'freeItems', amount: 2, reason: 'Lost paper card' },
    });
    expect(lost.status).toBe(200);
    const company = await staffPage('companyadmin');
    await shotOnFailure(company.page, 'four-eyes-approve', async () => {
      const page = company.page;
      await page.goto('/CustomerRequest');
      await page.locator('.bp6-table-cell, td').filter({ hasText: 'Lost paper card' }).first().waitFor();
      await page.getByRole('button', { name: 'Reject' }).first().click();
      const dialog = page.locator('.bp6-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('Reject 2 free items for Sara Customer');
      const confirmReject = dialog.getByRole('button', { name: 'Reject' });
      expect(await confirmReject.isDisabled()).toBe(true);
      await dialog.getByLabel('Reason').fill('No proof of the paper card');
      await screenshot(page, 'four-eyes-reject-reason-1280');
      await confirmReject.click();
      await toasts(page).filter({ hasText: 'Request rejected' }).waitFor({ timeout: 20_000 });
      await page.locator('.bp6-tag').filter({ hasText: 'rejected' }).first().waitFor();
      expect(await toasts(page).count()).toBe(1);
      await toasts(page).getByRole('button').first().click();
      await expect.poll(() => toasts(page).count()).toBe(0);

      await page.locator('.bp6-table-cell, td').filter({ hasText: REASON }).first().waitFor();
      await page.getByRole('button', { name: 'Approve' }).first().click();
      const confirmation = page.getByTestId('approve-confirmation');
      await confirmation.waitFor();
      const text = await confirmation.innerText();
      expect(text).toContain('5 points for Sara Customer');
      expect(await pointsOf()).toBe(before);
      await screenshot(page, 'four-eyes-approve-confirm-1280');
      await page.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
      await toasts(page).filter({ hasText: 'Request approved' }).waitFor({ timeout: 20_000 });
      await page.locator('.bp6-tag').filter({ hasText: 'approved' }).first().waitFor();
      await page.waitForTimeout(500);
      expect(await toasts(page).count()).toBe(1);
      expect(await toasts(page).first().innerText()).toContain('5 points for Sara Customer');
      await screenshot(page, 'four-eyes-approved-1280');
    });
    expect(await pointsOf()).toBe(before + 5);
    expect(company.errors).toEqual([]);
  }, 180_000);
});
