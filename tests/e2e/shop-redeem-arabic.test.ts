import { describe, expect, it } from 'vitest';
import { PHONE, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 24's story "orders with 100 points spent on a line", in Chromium at 390 px, in Arabic: the
 * seeded customer (120 points) puts one Espresso (100 points) in the cart, pays it with points at
 * checkout, the summary shows the 100 points and the money left to pay before Place order, and
 * after the order the customer's points are 20.
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';

describe('spending points in Arabic', () => {
  it('a customer pays an Espresso with 100 points; the summary shows it before Place order; the balance drops by 100', async () => {
    const token = await server.api.login('customer');
    const pointsNow = async () => (await server.api.get(`${API}/Customer/GetCurrentCustomerDetails`, { token, query: { brandId: 7 } })).body.result.points as number;
    expect(await pointsNow()).toBe(120);
    const menu = await server.api.get(`${API}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, { query: { brandId: 7, branchId: 1 } });
    const espresso = (menu.body.result as { subtypes: { products: { id: number; name: string }[] }[] }[])
      .flatMap((t) => t.subtypes.flatMap((s) => s.products)).find((p) => p.name === 'Espresso')!.id;

    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, 'customer');
    await page.evaluate(() => localStorage.setItem('language', 'ar'));

    await shotOnFailure(page, 'shop-redeem-arabic-cart', async () => {
      await page.goto(`/product-detail/${espresso}`);
      await page.getByRole('button', { name: /أضف إلى السلة/ }).click(); // 2, the product page's least (SPEC.md 9)
      await page.waitForURL('**/products');
      await page.goto('/cart');
      await page.getByRole('button', { name: 'إنقاص الكمية' }).click();
      await page.getByTestId('cart-total').filter({ hasText: '0.900' }).waitFor();
      await page.getByRole('link', { name: 'المتابعة إلى الدفع' }).click();
      await page.waitForURL('**/check-out');
    });

    const orderPoints = await shotOnFailure(page, 'shop-redeem-arabic-checkout', async () => {
      const total = page.getByTestId('checkout-total');
      await total.waitFor();
      const paidFully = await total.textContent();
      await page.getByText('لديك 120 نقطة.').waitFor();
      await page.getByRole('checkbox', { name: 'إسبريسو مقابل 100 نقطة' }).check();
      await page.getByTestId('checkout-points').filter({ hasText: '100' }).waitFor();
      await total.filter({ hasNotText: paidFully! }).waitFor();
      expect(await total.textContent()).toBe('0.000 د.ك');
      await page.getByTestId('checkout-ready').waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      // At 390 px nothing runs off the side.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'shop-redeem-arabic-checkout-390');
      await page.getByRole('button', { name: 'قدّم الطلب' }).click();
      await page.waitForURL('**/track-order**');
      return pointsNow();
    });
    expect(orderPoints).toBe(20);
    await page.getByTestId('order-title').waitFor();
    await page.getByTestId('order-ready-estimate').waitFor();
    await screenshot(page, 'shop-redeem-arabic-track-390');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
