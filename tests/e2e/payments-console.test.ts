import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * /payment-history and /Balance-Enquiry in Chromium (SPEC.md 2.2, 7 PaymentDashboard): payments
 * made through the API show with their method and amount, a filter narrows them, and the balance
 * panel lists the three provider accounts with an average of N/A.
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';

describe('payments in the console', () => {
  it('a brand manager finds a cash payment in Payment History and filters by method; the admin reads the balances', async () => {
    // Two cash orders of branch 1, paid at the counter; a third left unpaid is not a payment.
    const branchUser = await server.api.login('branchuser');
    const paid: number[] = [];
    for (const name of ['Noura Paid', 'Fahad Paid', 'Unpaid Ali']) {
      const id = await placeGuestOrder(server.api, { name });
      if (!name.startsWith('Unpaid')) {
        const res = await server.api.put(`${API}/Store/UpdateOrderToPaidStatus`, { token: branchUser, body: { orderId: id } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        paid.push(id);
      }
    }

    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, 'brandmanager');
    await page.goto('/payment-history');
    await shotOnFailure(page, 'payment-history-1280', async () => {
      const table = page.locator('.resource-screen');
      await table.getByText('Noura Paid').waitFor({ timeout: 30_000 });
      await table.getByText('Fahad Paid').waitFor();
      expect(await table.getByText('Unpaid Ali').count()).toBe(0);
      await expect.poll(() => page.getByText(/1–2 of 2/).count()).toBe(1);
      // the method filter's options come from the server; Cash at branch keeps both, KNET none
      await page.getByLabel('Method').selectOption({ label: 'Cash at branch' });
      await expect.poll(() => page.getByText(/1–2 of 2/).count()).toBe(1);
      await page.getByLabel('Method').selectOption({ label: 'KNET' });
      await page.getByText('0 payments', { exact: true }).waitFor(); // the empty pager counts in words (issue 23), no longer "None"
      await page.getByLabel('Method').selectOption({ label: 'Method: all' });
      await page.getByLabel('Customer, phone or order no.').fill('Fahad');
      await expect.poll(() => page.getByText(/1–1 of 1/).count()).toBe(1);
      await screenshot(page, 'payment-history-1280');
    });
    await context.close();

    // On a phone the list still reaches every column (Table2 scrolls inside its box).
    const phone = await newContext(browser, server.url, PHONE);
    const small = await phone.newPage();
    await signIn(small, 'companyadmin');
    await small.goto('/payment-history');
    await small.locator('.resource-screen').getByText('Noura Paid').waitFor({ timeout: 30_000 });
    await screenshot(small, 'payment-history-390');

    await small.goto('/Balance-Enquiry');
    await shotOnFailure(small, 'balance-enquiry-390', async () => {
      for (const provider of ['SMS', 'Payment', 'E-mail']) await small.getByLabel(`${provider} account`).waitFor({ timeout: 30_000 });
      const sms = small.getByLabel('SMS account');
      expect(await sms.getByRole('row', { name: /Average/ }).textContent()).toContain('N/A');
      // the figures are the server's: every card shows what BalanceEnquiryAsync answers
      const token = await server.api.login('companyadmin');
      const answer = (await server.api.post(`${API}/PaymentDashboard/BalanceEnquiryAsync`, { token, body: {} })).body.result;
      expect(await sms.getByRole('row', { name: /All time/ }).textContent()).toContain(String(answer[0].total));
      await screenshot(small, 'balance-enquiry-390');
    });
    await phone.close();
    expect(errors).toEqual([]);
  });
});
