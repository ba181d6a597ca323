import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 21 in Chromium, "Checkout and cash": a customer places a card order, lands on the
 * (sandbox) payment page and presses the browser's Back. The shop shows the first order,
 * "Payment not completed" with Pay again, never a fresh checkout, and no second order is made:
 * not by a double click on Place order, not by Back, not by opening the checkout again in
 * another tab, not by Pay again. Orders are counted through the API.
 */
const STORE = '/api/services/app/Store';
const CUSTOMER_ID = 5;
let admin: string;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  admin = await server.api.login('admin');
});

/** The customer's orders as staff list them. */
async function customerOrders() {
  const res = await server.api.get(`${STORE}/GetUserOrdersAsBranchUser`, { token: admin, query: { CustomerId: CUSTOMER_ID, MaxResultCount: 100 } });
  expect(res.status).toBe(200);
  return res.body.result as { totalCount: number; data: { id: number; payment: string; paymentSystemId: number }[] };
}

async function signInAndFillCart(page: Page) {
  await page.goto('/login');
  await page.getByLabel('User name, e-mail or phone').fill('customer');
  await page.getByLabel('Password').fill('123qwe');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/profile');
  await page.goto('/products');
  await page.getByTestId('product-list').getByRole('link', { name: /Pistachio Cookie/ }).click();
  await page.getByRole('button', { name: /Add to Cart/ }).click();
  await page.waitForURL('**/products');
}

describe('Back from the payment page', () => {
  it('shows the first order, "Payment not completed · Pay again", and Place order never makes a second order', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await shotOnFailure(page, 'checkout-back', async () => {
      await signInAndFillCart(page);
      const before = (await customerOrders()).totalCount;
      await page.goto('/check-out');
      await page.getByLabel('VISA/MASTER').check();
      await screenshot(page, 'checkout-back-1-checkout-390');
      // A marker that survives only if Chromium keeps this page in memory (bfcache) for the way back.
      await page.evaluate(() => { (window as unknown as { __kept: boolean }).__kept = true; });
      // A double click: the button is disabled while the order is sent, so one order.
      await page.getByRole('button', { name: 'Place order' }).dblclick();
      await page.waitForURL('**/payments/sandbox/**');
      const paymentPage = page.url();
      await screenshot(page, 'checkout-back-2-payment-page-390');
      const placed = await customerOrders();
      expect(placed.totalCount).toBe(before + 1);
      const first = placed.data[0];
      expect(first).toMatchObject({ payment: 'unpaid' });

      // The browser's Back.
      await page.goBack();
      await page.waitForURL('**/track-order?**');
      const url = new URL(page.url());
      expect(url.searchParams.get('orderId')).toBe(String(first.id));
      expect(url.searchParams.get('payment')).toBe('notCompleted');
      await page.getByRole('heading', { name: 'Payment not completed' }).waitFor();
      await page.getByRole('button', { name: 'Pay again' }).waitFor();
      expect(await page.getByRole('button', { name: 'Place order' }).count()).toBe(0);
      const kept = await page.evaluate(() => !!(window as unknown as { __kept?: boolean }).__kept);
      console.log(`Back from the payment page: ${kept ? 'the checkout page kept in memory (bfcache, pageshow)' : 'the checkout loaded again'}`);
      await screenshot(page, 'checkout-back-3-first-order-390');
      expect((await customerOrders()).totalCount).toBe(before + 1);
      // The tracker knows the order: the cart that made it is gone, so a checkout cannot place it again.
      expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');
      await page.goto('/check-out');
      await page.waitForURL((u) => u.pathname !== '/check-out');
      expect((await customerOrders()).totalCount).toBe(before + 1);

      // Pay again opens the same (still open) payment, and paying it pays the first order.
      await page.goto(`/track-order?orderId=${first.id}&payment=notCompleted`);
      await page.getByRole('button', { name: 'Pay again' }).click();
      await page.waitForURL('**/payments/sandbox/**');
      expect(page.url()).toBe(paymentPage);
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL('**/track-order?**');
      await page.getByRole('heading', { name: 'Transaction Successfull' }).waitFor();
      const after = await customerOrders();
      expect(after.totalCount).toBe(before + 1);
      expect(after.data[0]).toMatchObject({ id: first.id, payment: 'paid' });
      await screenshot(page, 'checkout-back-4-paid-390');
    });
    await context.close();
  }, 120_000);

  it('a checkout opened in another tab while the payment page is open leads to the same order', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await shotOnFailure(page, 'checkout-second-tab', async () => {
      await signInAndFillCart(page);
      const before = (await customerOrders()).totalCount;
      await page.goto('/check-out');
      await page.getByLabel('VISA/MASTER').check();
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL('**/payments/sandbox/**');
      const first = (await customerOrders()).data[0];

      const tab = await context.newPage();
      await tab.goto('/check-out');
      await tab.waitForURL('**/track-order?**');
      expect(new URL(tab.url()).searchParams.get('orderId')).toBe(String(first.id));
      await tab.getByRole('heading', { name: 'Payment not completed' }).waitFor();
      await screenshot(tab, 'checkout-back-second-tab-390');
      expect((await customerOrders()).totalCount).toBe(before + 1);
    });
    await context.close();
  }, 120_000);
});
