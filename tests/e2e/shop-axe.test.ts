import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { DESKTOP, PHONE, launchBrowser, newContext, screenshot } from '../support/browser';
import { seriousViolations as serious } from '../support/axe';

/**
 * Issue 12: axe (WCAG 2 A and AA rules) finds no serious or critical violation on any shop
 * screen, at a phone's and a desktop's width. axe-core is injected with playwright-core.
 */
let server: ServerProcess;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Settled: no loading spinner, no passing notification, fonts and images in. */
async function settle(page: Page, ready: string) {
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  await page.locator('.app-loading').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
  await page.waitForLoadState('networkidle').catch(() => {});
}

describe('axe on every shop screen', () => {
  for (const [width, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
    it(`0 serious and 0 critical violations (${width} px)`, async () => {
      const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: 7, branchId: 1 } });
      const cookie = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Cappuccino');
      const guest = await server.api.guestToken();
      const placed = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
        token: guest, headers: { 'idempotency-key': `axe-${width}` },
        body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, guestCustomerName: 'Axe Guest', guestPhoneNumber: '+96550000099', products: [{ productId: menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Pistachio Cookie').id, quantity: 2 }] },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const { orderId, ohash } = placed.body.result;

      const screens: [string, string][] = [
        ['/', '.picker-brand'],
        ['/products', '[data-testid="product-list"]'],
        [`/product-detail/${cookie.id}`, '[data-testid="product-carousel"]'],
        ['/cart', 'h1'],
        ['/branch/BranchDetails', '[data-testid="branch-name"]'],
        ['/product-review', 'h1'],
        ['/select-location?address=guest_checkout', 'h1'],
        ['/login', 'h1'],
        ['/forgot_password', 'h1'],
        ['/reset_password?phone=%2B96550000001', 'h1'],
        ['/registration', 'h1'],
        ['/no-such-page', 'h1'],
      ];
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      const found: string[] = [];
      try {
        for (const [url, ready] of screens) {
          await page.goto(url);
          await settle(page, ready);
          for (const v of await serious(page)) found.push(`${url}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        }
        // A filled cart and the guest's checkout.
        await page.goto(`/product-detail/${cookie.id}`);
        await page.getByLabel('Large').check();
        await page.getByRole('button', { name: /Add to Cart/ }).click();
        await page.waitForURL('**/products');
        // The guest's order screens need the guest session that 'Checkout as guest' starts.
        const guestScreens: [string, string][] = [
          ['/cart', '[data-testid="cart-total"]'], ['/check-out', 'text=Place order'],
          [`/track-order?orderId=${orderId}&ohash=${encodeURIComponent(ohash)}`, '[data-testid="order-total"]'],
          [`/track?orderId=${orderId}&ohash=${encodeURIComponent(ohash)}`, '[data-testid="order-summary"]'],
        ];
        for (const [url, ready] of guestScreens) {
          if (url === '/check-out') {
            await page.goto('/cart');
            await page.getByRole('link', { name: 'Checkout as guest' }).click();
            await page.waitForURL('**/check-out');
          } else await page.goto(url);
          await settle(page, ready);
          for (const v of await serious(page)) found.push(`${url}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        }
        // The customer's own screens.
        await page.goto('/login');
        await page.getByLabel('User name, e-mail or phone').fill('customer');
        await page.getByLabel('Password').fill('123qwe');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL('**/profile');
        for (const [url, ready] of [['/profile', 'h1'], ['/track/previous', 'h1'], ['/address-details', 'h1']] as const) {
          await page.goto(url);
          await settle(page, ready);
          for (const v of await serious(page)) found.push(`${url}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        }
        console.log(`axe ${width} px: ${screens.length + guestScreens.length + 3} screens, ${found.length} serious/critical`);
        expect(found).toEqual([]);
      } catch (e) {
        await screenshot(page, `shop-axe-failed-${width}`);
        throw e;
      } finally {
        await context.close();
      }
    });
  }
});
