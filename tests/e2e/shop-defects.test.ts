import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/** Defects of issue 12 ("the shop for Kuwait"), each as a customer meets it in Chromium. */
const { server, browser } = useServerAndBrowser();

const WIDTHS = [['390', PHONE], ['1280', DESKTOP]] as const;

async function withPage(name: string, viewport: { width: number; height: number }, run: (page: Page) => Promise<void>) {
  const context = await newContext(browser, server.url, viewport);
  const page = await context.newPage();
  try {
    await run(page);
  } catch (e) {
    await screenshot(page, `${name}-failed`);
    throw e;
  } finally {
    await context.close();
  }
}

describe("a page's code file that fails to load", () => {
  for (const [width, viewport] of WIDTHS) {
    it(`shows a message with Retry, and Retry works once the file loads (${width} px)`, async () => {
      await withPage(`shop-chunk-retry-${width}`, viewport, async (page) => {
        await page.goto('/products');
        const link = page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ });
        await link.waitFor();
        const blocked = (route: import('playwright-core').Route) => route.fulfill({ status: 404, body: 'gone' });
        await page.route('**/assets/ProductDetailPage-*.js', blocked);
        await link.click();
        const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
        await alert.waitFor({ timeout: 30_000 });
        // The shop around the page stays: header and navigation are still there.
        expect(await page.locator('header').count()).toBeGreaterThan(0);
        await screenshot(page, `shop-chunk-failed-${width}`);
        await page.unroute('**/assets/ProductDetailPage-*.js', blocked);
        await page.getByRole('button', { name: 'Retry' }).click();
        await page.getByRole('button', { name: /Add to Cart/ }).waitFor({ timeout: 30_000 });
        expect(await alert.count()).toBe(0);
      });
    });
  }

  it('reloads once to the new deploy when the old file is gone, and does not loop', async () => {
    await withPage('shop-chunk-stale', DESKTOP, async (page) => {
      // Document loads, not history changes (a wouter link is a pushState).
      let loads = 0;
      page.on('load', () => { loads++; });
      await page.goto('/products');
      const link = page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ });
      await link.waitFor();
      // The old chunk is gone, and the shell now names other bundles: a new deploy.
      await page.route('**/assets/ProductDetailPage-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.route('**/*', async (route) => {
        const req = route.request();
        if (req.resourceType() !== 'fetch' || new URL(req.url()).pathname !== '/') return route.fallback();
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><script type="module" src="/assets/index-NEWDEPLOY.js"></script>' });
      });
      const before = loads;
      await link.click();
      await page.waitForEvent('load', { timeout: 30_000 });
      // After the one reload the file is still missing here: the message shows, no second reload.
      await page.getByRole('alert').filter({ hasText: 'This page could not be loaded' }).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1500);
      expect(loads - before).toBe(1);
    });
  });
});

describe('a card payment', () => {
  // The harness runs without PUBLIC_URL, as `npm start` does, so the server's own address is
  // 127.0.0.1: the shop opened at another name for the same server must come back to that name.
  for (const [width, viewport, host] of [['390', PHONE, 'localhost'], ['1280', DESKTOP, '127.0.0.1']] as const) {
    it(`opened at ${host} returns signed in to /track-order; a cancelled one is paid again (${width} px)`, async () => {
      const origin = server.url.replace('127.0.0.1', host);
      const context = await newContext(browser, origin, viewport);
      const page = await context.newPage();
      try {
        await page.goto('/login');
        await page.getByLabel('User name, e-mail or phone').fill('customer');
        await page.getByLabel('Password').fill('123qwe');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL('**/profile');
        await page.goto('/products');
        await page.getByTestId('product-list').getByRole('link', { name: /Pistachio Cookie/ }).click();
        await page.getByRole('button', { name: /Add to Cart/ }).click();
        await page.waitForURL('**/products');
        await page.goto('/check-out');
        await page.getByLabel('VISA/MASTER').check();
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.waitForURL('**/payments/sandbox/**');
        expect(new URL(page.url()).origin).toBe(origin);
        // The order is not known to the shop yet: the cart is still there.
        expect(JSON.parse(await page.evaluate(() => localStorage.getItem('cartItems') ?? '[]'))).toHaveLength(1);
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.waitForURL('**/track-order?**');
        expect(new URL(page.url()).origin).toBe(origin);
        await page.getByRole('heading', { name: 'The payment was cancelled' }).waitFor();
        await page.getByTestId('account-menu').waitFor(); // still signed in: the header's account menu
        expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');
        await screenshot(page, `shop-pay-cancelled-${width}`);

        await page.getByRole('button', { name: 'Pay again' }).click();
        await page.waitForURL('**/payments/sandbox/**');
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL('**/track-order?**');
        expect(new URL(page.url()).origin).toBe(origin);
        expect(new URL(page.url()).searchParams.get('payment')).toBeNull();
        await page.getByRole('heading', { name: 'Transaction Successfull' }).waitFor();
        await page.getByTestId('account-menu').waitFor();
        expect(await page.getByRole('button', { name: 'Pay again' }).count()).toBe(0);
        await screenshot(page, `shop-pay-again-paid-${width}`);
      } catch (e) {
        await screenshot(page, `shop-pay-failed-${width}`);
        throw e;
      } finally {
        await context.close();
      }
    });
  }
});

describe('the product page and the checkout', () => {
  for (const [width, viewport] of WIDTHS) {
    it(`names the product and the brand, says what adding past 69 did, and shows the server's total before Place order (${width} px)`, async () => {
      await withPage(`shop-copy-${width}`, viewport, async (page) => {
        await page.goto('/products');
        await page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ }).click();
        await page.getByRole('heading', { name: 'Cappuccino' }).waitFor();
        await page.waitForFunction(() => document.title.startsWith('Cappuccino'));
        expect(await page.locator('.shop-logo').textContent()).toBe('Mango Coffee');
        // The brand's name is shown whole, not cut to 'Mango Co…' beside the nav on a phone.
        expect(await page.locator('.shop-logo').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        // Size is required: the hint is visible, above the sticky bar, not under it.
        const hint = page.getByText('Please choose Size.');
        const bar = page.locator('.product-detail__buy');
        const [h, b] = [await hint.boundingBox(), await bar.boundingBox()];
        expect(h!.y + h!.height).toBeLessThanOrEqual(b!.y + 1);
        await screenshot(page, `shop-product-hint-${width}`);

        await page.getByLabel('Large').check();
        const stepper = page.getByRole('group', { name: /Quantity of Cappuccino/ });
        for (let q = 2; q < 69; q++) await stepper.getByRole('button', { name: 'Increase quantity' }).click();
        await page.getByRole('button', { name: /Add to Cart/ }).click();
        await page.waitForURL('**/products');
        await page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ }).click();
        await page.getByLabel('Large').check();
        await page.getByRole('button', { name: /Add to Cart/ }).click();
        await page.getByRole('alert').filter({ hasText: 'Your cart already has 69 × Cappuccino' }).waitFor();
        // Nothing was added: the page stays, and the cart line holds 69.
        expect(new URL(page.url()).pathname).toMatch(/^\/product-detail\//);
        expect(JSON.parse(await page.evaluate(() => localStorage.getItem('cartItems') ?? '[]')).map((i: any) => i.product.Quantity)).toEqual([69]);

        // The checkout shows the total as the server prices it (QuoteOrder) before Place order.
        await page.goto('/cart');
        await page.getByRole('link', { name: 'Checkout as guest' }).click();
        await page.waitForURL('**/check-out');
        await page.getByLabel('Name').fill('Total Guest');
        await page.getByLabel('Phone').fill('50000043');
        const total = page.getByTestId('checkout-total');
        await total.waitFor();
        const quoted = await total.textContent();
        await screenshot(page, `shop-checkout-total-${width}`);
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.waitForURL('**/track-order?**');
        expect(await page.getByTestId('order-total').textContent()).toBe(quoted);

        // A product that does not exist.
        await page.goto('/product-detail/999999');
        await page.getByRole('heading', { name: 'Product not found' }).waitFor();
        expect(await page.getByText('There is no such an entity').count()).toBe(0);
        await page.getByText('This product does not exist or is no longer on the menu.').waitFor();
      });
    });
  }
});

// Last in this file: it changes the seeded customer's password.
describe('forgot password', () => {
  for (const [width, viewport] of WIDTHS) {
    it(`takes the 8 local digits as customers type them, and 'Password changed' shows on sign-in (${width} px)`, async () => {
      await withPage(`shop-forgot-${width}`, viewport, async (page) => {
        const password = `new-pass-${width}`;
        await page.goto('/forgot_password');
        expect(await page.getByLabel('Country code').inputValue()).toBe('965');
        await page.getByLabel('Phone number').fill('50000001');
        expect(await page.getByLabel('Phone number').inputValue()).toBe('500 00001');
        await screenshot(page, `shop-forgot-${width}`);
        await page.getByRole('button', { name: 'Send code' }).click();
        await page.waitForURL('**/reset_password?**');
        expect(new URL(page.url()).searchParams.get('phone')).toBe('+96550000001');
        const [code] = await server.smsCodes('+96550000001', 'reset');
        await page.getByLabel('Code').fill(code);
        await page.getByLabel('New password').fill(password);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.waitForURL('**/login');
        await page.getByRole('alert').filter({ hasText: 'Password changed' }).waitFor({ timeout: 10_000 });
        await screenshot(page, `shop-forgot-changed-${width}`);
        expect(await server.api.login('customer', password)).toBeTruthy();
      });
    });
  }
});
