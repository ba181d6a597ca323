import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 24 "Trust" items in Chromium at 390 px: a sold-out line is marked in the cart and at
 * checkout with a Remove button and Place order waits for it; the guest's name and phone survive
 * the address pages and a reload of /check-out; the remarks field counts to the server's limit.
 */
let espresso: number, cookie: number;
const API = '/api/services/app';

const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  const menu = await server.api.get(`${API}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, { query: { brandId: 7, branchId: 1 } });
  const products = (menu.body.result as { subtypes: { products: { id: number; name: string }[] }[] }[]).flatMap((t) => t.subtypes.flatMap((s) => s.products));
  [espresso, cookie] = ['Espresso', 'Pistachio Cookie'].map((name) => products.find((p) => p.name === name)!.id);
}, 120_000);

/** A guest's cart of one espresso (2, the product page's least) and one cookie line, then /cart. */
async function guestCart(page: Page) {
  await page.goto('/');
  const brand = page.getByRole('button', { name: /Mango Coffee/ });
  await brand.waitFor();
  if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
  await page.getByRole('button', { name: /Salmiya/ }).click();
  await page.waitForURL('**/products');
  for (const id of [espresso, cookie]) {
    await page.goto(`/product-detail/${id}`);
    await page.getByRole('button', { name: /Add to Cart/ }).click();
    await page.waitForURL('**/products');
  }
  await page.goto('/cart');
}

describe('checkout details', () => {
  it('a sold-out line is marked in the cart and at checkout, with Remove; Place order waits until it is removed', async () => {
    const branchUser = await server.api.login('branchuser');
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const off = await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: true } });
    expect(off.status).toBe(200);
    await guestCart(page);
    // Sold out after it was put in the cart.
    await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: false } });
    try {
      await shotOnFailure(page, 'shop-sold-out-cart', async () => {
        await page.goto('/cart');
        const mark = page.getByTestId('sold-out');
        await mark.waitFor();
        expect(await mark.textContent()).toContain('Pistachio Cookie is sold out. Remove it to place your order.');
        expect(await page.getByTestId('cart-line').count()).toBe(2);
        await screenshot(page, 'shop-sold-out-cart-390');
        await page.getByRole('link', { name: 'Checkout as guest' }).click();
        await page.waitForURL('**/check-out');
      });
      await shotOnFailure(page, 'shop-sold-out-checkout', async () => {
        await page.getByLabel('Name').fill('Huda');
        await page.getByLabel('Phone').fill('50000043');
        const summary = page.getByRole('complementary', { name: 'Order summary' });
        await summary.getByTestId('sold-out').waitFor();
        const place = page.getByRole('button', { name: 'Place order' });
        expect(await place.isDisabled()).toBe(true);
        await screenshot(page, 'shop-sold-out-checkout-390');
        await summary.getByRole('button', { name: 'Remove Pistachio Cookie' }).click();
        await summary.getByTestId('sold-out').waitFor({ state: 'detached' });
        expect(await summary.getByTestId('cart-line').count()).toBe(1);
        await page.waitForFunction(() => !(document.querySelector('.checkout__summary button.shop-button') as HTMLButtonElement | null)?.disabled);
        await place.click();
        await page.waitForURL('**/track-order**');
      });
    } finally {
      await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: true } });
    }
    expect(errors).toEqual([]);
  }, 180_000);

  it("what the guest types and removes before the checkout's options arrive is kept (the page is drawn before them)", async () => {
    const branchUser = await server.api.login('branchuser');
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await guestCart(page);
    await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: false } });
    // The checkout's options (its first read, the payment methods) are held back until the guest has typed and removed.
    const held: Route[] = [];
    let hold = true;
    await page.route('**/graphql', (route) => {
      if (hold && route.request().postDataJSON()?.operationName === 'CheckoutPaymentMethods') held.push(route);
      else void route.continue();
    });
    try {
      await shotOnFailure(page, 'shop-checkout-before-options', async () => {
        await page.getByRole('link', { name: 'Checkout as guest' }).click();
        await page.waitForURL('**/check-out');
        await page.getByLabel('Name').fill('Huda');
        await page.getByLabel('Phone').fill('50000044');
        // Still loading its options: no Place order yet; what was typed is there, and the sold-out line is marked.
        await expect.poll(() => held.length).toBeGreaterThan(0);
        expect(await page.getByRole('button', { name: 'Place order' }).count()).toBe(0);
        expect(await page.getByLabel('Name').inputValue()).toBe('Huda');
        expect((await page.getByLabel('Phone').inputValue()).replace(/\D/g, '')).toBe('50000044');
        const summary = page.getByRole('complementary', { name: 'Order summary' });
        await summary.getByTestId('sold-out').waitFor();
        await screenshot(page, 'shop-checkout-before-options-390');
        await summary.getByRole('button', { name: 'Remove Pistachio Cookie' }).click();
        await summary.getByTestId('sold-out').waitFor({ state: 'detached' });
        expect(await summary.getByTestId('cart-line').count()).toBe(1);

        hold = false;
        for (const r of held.splice(0)) await r.continue();
        const place = page.getByRole('button', { name: 'Place order' });
        await expect.poll(() => place.isEnabled(), { timeout: 15_000 }).toBe(true);
        expect(await page.getByLabel('Name').inputValue()).toBe('Huda');
        expect((await page.getByLabel('Phone').inputValue()).replace(/\D/g, '')).toBe('50000044');
        expect(await summary.getByTestId('cart-line').count()).toBe(1);
        await screenshot(page, 'shop-checkout-after-options-390');
        await place.click();
        await page.waitForURL('**/track-order**');
      });
    } finally {
      await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: true } });
    }
    // The order carries the guest's name and phone typed before the options, and the espresso alone.
    const url = new URL(page.url());
    const order = await server.api.get(`${API}/Store/GetOrderDetailAsBranchUser`, { token: branchUser, query: { orderId: Number(url.searchParams.get('orderId')) } });
    expect(order.status).toBe(200);
    expect(order.body.result).toMatchObject({ guestCustomerName: 'Huda', guestPhoneNumber: '+96550000044' });
    expect(order.body.result.items.map((i: { productId: number }) => i.productId)).toEqual([espresso]);
    expect(errors).toEqual([]);
  }, 180_000);

  it("the guest's name and phone survive the address pages and a reload of /check-out", async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    await shotOnFailure(page, 'shop-guest-kept', async () => {
      await guestCart(page);
      await page.getByRole('link', { name: 'Checkout as guest' }).click();
      await page.waitForURL('**/check-out');
      await page.getByLabel('Name').fill('Huda');
      await page.getByLabel('Phone').fill('50000043');
      // Delivery without an address: to the location picker, and back.
      await page.locator('label', { has: page.getByRole('radio', { name: /Delivery/ }) }).click();
      await page.waitForURL('**/select-location**');
      // Back to the checkout from the address pages, as a link would bring the customer there (a fresh load in this tab).
      await page.goto('/check-out');
      await page.getByLabel('Name').waitFor();
      expect(await page.getByLabel('Name').inputValue()).toBe('Huda');
      expect((await page.getByLabel('Phone').inputValue()).replace(/\D/g, '')).toBe('50000043');
      await page.reload();
      await page.getByLabel('Name').waitFor();
      expect(await page.getByLabel('Name').inputValue()).toBe('Huda');
      expect((await page.getByLabel('Phone').inputValue()).replace(/\D/g, '')).toBe('50000043');
    });
  }, 180_000);

  it("the remarks field counts to the server's limit (500) and stops there; the promotion code stops at the server's 50", async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    await shotOnFailure(page, 'shop-remarks-limit', async () => {
      await guestCart(page);
      await page.goto('/product-review');
      const remarks = page.getByLabel('Special remarks');
      await remarks.fill('x'.repeat(600));
      expect((await remarks.inputValue()).length).toBe(500);
      expect(await page.getByTestId('remarks-count').textContent()).toBe('500/500');
      // The promotion code stops where the server's limit is (PROMO_CODE_MAX, 50), not before.
      const promo = page.locator('#promotion-code');
      await promo.fill('P'.repeat(60));
      expect((await promo.inputValue()).length).toBe(50);
    });
  }, 120_000);
});
