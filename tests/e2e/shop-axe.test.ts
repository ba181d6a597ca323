import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot, watchGateway } from '../support/browser';
import { seriousViolations as serious } from '../support/axe';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 12: axe (WCAG 2 A and AA rules) finds no serious or critical violation on any shop
 * screen, at a phone's and a desktop's width, in English and in Arabic (right to left). axe-core
 * is injected with playwright-core.
 */
const LANGS = [
  {
    code: 'en', locale: 'en-US', large: 'Large', addToCart: /Add to Cart/, guest: 'Checkout as guest', place: 'Place order',
    login: 'User name, e-mail or phone', password: 'Password', signIn: 'Sign in', failed: 'This page could not be loaded',
  },
  {
    code: 'ar', locale: 'ar-KW', large: 'كبير', addToCart: /أضف إلى السلة/, guest: 'الدفع كضيف', place: 'قدّم الطلب',
    login: 'اسم المستخدم أو البريد الإلكتروني أو الهاتف', password: 'كلمة المرور', signIn: 'تسجيل الدخول', failed: 'تعذّر تحميل هذه الصفحة',
  },
] as const;
const { server, browser } = useServerAndBrowser();

/** Settled: the screen is there with no loading spinner, its gateway calls answered, fonts and images in. */
async function settle(page: Page, ready: string, gateway: ReturnType<typeof watchGateway>) {
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  await page.locator('.app-loading').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
  await gateway.quiet();
  await page.waitForFunction(() => document.fonts.status === 'loaded' && [...document.images].every((i) => i.complete), undefined, { timeout: 30_000 });
}

describe('axe on every shop screen', () => {
  for (const lang of LANGS) for (const [width, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
    it(`0 serious and 0 critical violations (${lang.code}, ${width} px)`, async () => {
      const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: 7, branchId: 1 } });
      const cookie = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Cappuccino');
      const guest = await server.api.guestToken();
      const placed = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
        token: guest, headers: { 'idempotency-key': `axe-${lang.code}-${width}` },
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
      const context = await browser.newContext({ baseURL: server.url, viewport, deviceScaleFactor: 1, locale: lang.locale });
      await context.addInitScript((code) => { if (!localStorage.getItem('language')) localStorage.setItem('language', code); }, lang.code);
      const page = await context.newPage();
      const gateway = watchGateway(page);
      const found: string[] = [];
      const axe = async (url: string) => { for (const v of await serious(page)) found.push(`${lang.code} ${url}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`); };
      try {
        for (const [url, ready] of screens) {
          await page.goto(url);
          await settle(page, ready, gateway);
          await axe(url);
        }
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang.code);
        // A page whose code file failed to load: the message with Retry.
        await page.goto('/products');
        await page.getByTestId('product-list').getByRole('link').first().waitFor();
        const blocked = (route: import('playwright-core').Route) => route.fulfill({ status: 404, body: 'gone' });
        await page.route('**/assets/ProductDetailPage-*.js', blocked);
        await page.getByTestId('product-list').getByRole('link').first().click();
        await settle(page, `[role="alert"]:has-text("${lang.failed}")`, gateway);
        await axe('code file failed');
        await page.unroute('**/assets/ProductDetailPage-*.js', blocked);
        // A filled cart and the guest's checkout.
        await page.goto(`/product-detail/${cookie.id}`);
        await page.getByLabel(lang.large).check();
        await page.getByRole('button', { name: lang.addToCart }).click();
        await page.waitForURL('**/products');
        // The guest's order screens need the guest session that 'Checkout as guest' starts.
        const guestScreens: [string, string][] = [
          ['/cart', '[data-testid="cart-total"]'], ['/check-out', `text=${lang.place}`],
          [`/track-order?orderId=${orderId}&ohash=${encodeURIComponent(ohash)}`, '[data-testid="order-total"]'],
          [`/track?orderId=${orderId}&ohash=${encodeURIComponent(ohash)}`, '[data-testid="order-summary"]'],
        ];
        for (const [url, ready] of guestScreens) {
          if (url === '/check-out') {
            await page.goto('/cart');
            await page.getByRole('link', { name: lang.guest }).click();
            await page.waitForURL('**/check-out');
          } else await page.goto(url);
          await settle(page, ready, gateway);
          await axe(url);
        }
        // The customer's own screens.
        await page.goto('/login');
        await page.getByLabel(lang.login).fill('customer');
        await page.getByLabel(lang.password, { exact: true }).fill('123qwe');
        await page.getByRole('button', { name: lang.signIn }).click();
        await page.waitForURL('**/profile');
        const customer = await server.api.login('customer');
        const own = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
          token: customer, headers: { 'idempotency-key': `axe-own-${lang.code}-${width}` },
          body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Pistachio Cookie').id, quantity: 1 }] },
        });
        const ownId = own.body.result?.orderId;
        const customerScreens: [string, string][] = [
          ['/profile', 'h1'], ['/track/previous', 'h1'], ['/address-details', 'h1'], ['/select-location', 'h1'],
          ...(ownId ? [[`/track?orderId=${ownId}`, '[data-testid="order-summary"]'] as [string, string]] : []),
        ];
        for (const [url, ready] of customerScreens) {
          await page.goto(url);
          await settle(page, ready, gateway);
          await axe(url);
        }
        // The notifications inbox, open.
        await page.locator('.bell__button').click();
        await page.waitForTimeout(500);
        await axe('notifications inbox');
        await page.locator('.bell__button').click();
        // The customer's checkout in each service mode.
        await page.goto(`/product-detail/${cookie.id}`);
        await page.getByLabel(lang.large).check();
        await page.getByRole('button', { name: lang.addToCart }).click();
        await page.waitForURL('**/products');
        await page.goto('/check-out');
        await settle(page, `text=${lang.place}`, gateway);
        for (const mode of ['pickup', 'carService', 'delivery']) {
          // Delivery without a saved address stays as it was (the checkout asks for one): what shows is checked either way.
          await page.locator(`input[name="mode"][value="${mode}"]`).click({ force: true });
          await gateway.quiet();
          await axe(`/check-out ${mode}`);
        }
        console.log(`axe ${lang.code} ${width} px: ${screens.length + guestScreens.length + customerScreens.length + 5} screens, ${found.length} serious/critical`);
        expect(found).toEqual([]);
      } catch (e) {
        await screenshot(page, `shop-axe-failed-${lang.code}-${width}`);
        throw e;
      } finally {
        await context.close();
      }
    });
  }
});
