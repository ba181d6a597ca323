import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { DESKTOP, PHONE, launchBrowser, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { startFakeMyFatoorah, type FakeMyFatoorah } from '../support/fakeMyFatoorah';
import { TEXT } from '../../domain/constants';

/**
 * Issue 21 in Chromium, "Providers": a guest pays a KNET order through the simulated MyFatoorah
 * page (tests/support/fakeMyFatoorah.ts, its documented protocol) and lands on /track-order paid.
 * The server is configured as in production, by MYFATOORAH_* (with the fake's base URL); the
 * brand switches on KNET (MyFatoorah), payment method 4.
 */
const MF = { apiKey: 'mf-e2e-api-key', webhookSecret: 'mf-e2e-webhook-secret' };
let server: ServerProcess;
let browser: Browser;
let mf: FakeMyFatoorah;
const saved = { ...process.env };

beforeAll(async () => {
  mf = await startFakeMyFatoorah(MF);
  Object.assign(process.env, { MYFATOORAH_API_KEY: MF.apiKey, MYFATOORAH_WEBHOOK_SECRET: MF.webhookSecret, MYFATOORAH_BASE_URL: mf.url });
  try {
    [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  } finally {
    for (const k of ['MYFATOORAH_API_KEY', 'MYFATOORAH_WEBHOOK_SECRET', 'MYFATOORAH_BASE_URL']) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  }
  mf.setWebhookUrl(`${server.url}/payments/myfatoorah/webhook`);
  const admin = await server.api.login('companyadmin');
  const on = await server.api.post('/api/services/app/BrandPayment/Create', { token: admin, body: { brandId: 7, paymentSystemId: 4 } });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await mf?.close();
});

describe('a guest pays with KNET through MyFatoorah', () => {
  it('orders from the shop, pays on the MyFatoorah page and lands on /track-order paid', async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await shotOnFailure(page, 'myfatoorah-pay', async () => {
      await page.goto('/');
      const brand = page.getByRole('button', { name: /Mango Coffee/ });
      await brand.waitFor();
      if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
      await page.getByRole('button', { name: /Salmiya/ }).click();
      await page.waitForURL('**/products');
      await page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ }).click();
      await page.waitForURL('**/product-detail/**');
      await page.getByLabel('Large').check();
      await page.getByRole('button', { name: /Add to Cart/ }).click();
      await page.waitForURL('**/products');
      await page.getByRole('link', { name: /View Cart/ }).click();
      await page.waitForURL('**/cart');
      await page.getByRole('link', { name: 'Checkout as guest' }).click();
      await page.waitForURL('**/check-out');
      await page.getByLabel('KNET (MyFatoorah)').check();
      await page.getByLabel('Name').fill('Fatima Guest');
      await page.getByLabel('Phone').fill('5000 0077');
      await page.getByLabel('Phone').blur();
      await page.getByRole('button', { name: 'Place order' }).click();

      // The simulated MyFatoorah page, on its own origin.
      await page.waitForURL(`${mf.url}/pay/**`);
      expect(await page.locator('.amount').textContent()).toMatch(/^\d+\.\d{3} KWD$/);
      await page.getByRole('button', { name: 'Pay' }).click();

      await page.waitForURL('**/track-order?**');
      await page.getByText(TEXT.transactionSuccess).waitFor();
      // The receipt KNET asks for: date and time, result, amount, payment id and track id.
      await page.getByTestId('payment-receipt').waitFor();
      await screenshot(page, 'myfatoorah-track-order-390');
    });
    const url = new URL(page.url());
    expect(url.searchParams.get('payment')).toBeNull();
    const orderId = Number(url.searchParams.get('orderId'));
    const detail = await server.api.get('/api/services/app/Store/GetOrderDetail', { token: await server.api.guestToken(), query: { orderId, ohash: url.searchParams.get('ohash') } });
    expect(detail.body.result).toMatchObject({ id: orderId, paymentSystemId: 4, isPaid: true });
    // Paid once: the return and the webhook both asked MyFatoorah, the invoice has one transaction.
    const invoice = [...mf.invoices.values()].find((i) => i.customerReference === detail.body.result.orderNumber)!;
    expect(invoice.transactions.map((t) => t.status)).toEqual(['Succss']);
    const [paid] = invoice.transactions;
    expect(await page.getByTestId('receipt-result').textContent()).toBe('CAPTURED');
    expect(await page.getByTestId('receipt-payment-id').textContent()).toBe(paid.paymentId);
    expect(await page.getByTestId('receipt-track-id').textContent()).toBe(paid.trackId);
    expect(errors).toEqual([]);

    // Staff: the reconciliation view lists it by state and provider with the provider's references.
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await signIn(staff, 'brandmanager');
    await staff.goto('/payment-reconciliation');
    await shotOnFailure(staff, 'payment-reconciliation-1280', async () => {
      const table = staff.locator('.resource-screen');
      await table.getByText(paid.trackId).waitFor({ timeout: 30_000 });
      await table.getByText(paid.paymentId).waitFor();
      await staff.getByLabel('State').selectOption({ label: 'Paid' });
      await staff.getByLabel('Provider').selectOption({ label: 'MyFatoorah' });
      await expect.poll(() => staff.getByText(/1–1 of 1/).count()).toBe(1);
      await screenshot(staff, 'payment-reconciliation-1280');
      await staff.getByLabel('Provider').selectOption({ label: 'Tap' });
      await staff.getByText('None', { exact: true }).waitFor();
    });
  });
});
