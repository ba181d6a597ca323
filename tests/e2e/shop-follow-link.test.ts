import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 24, "a guest's tracking link works only in the browser that placed the order", as a
 * customer in Kuwait lives it at 390 px in Arabic: a guest orders; the /track-order link is opened
 * in a second browser context (no cookies, no storage: another phone, or the browser a payment app
 * returns to); it shows the tracker without asking to sign in, and reads the branch's "accepted"
 * and "ready" live as the branch user marks them over REST.
 */
const { server, browser } = useServerAndBrowser();

const newPhone = () => browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: 'ar-KW' });
const progress = (page: Page) => page.getByTestId('order-progress');

describe('the tracking link opened in a second browser (390 px, Arabic)', () => {
  it('shows the tracker without signing in and follows "accepted" and "ready" live', async () => {
    const first = await newPhone();
    const second = await newPhone();
    const ordering = await first.newPage();
    const holder = await second.newPage();
    const errors: string[] = [];
    for (const p of [ordering, holder]) p.on('pageerror', (e) => errors.push(e.message));
    try {
      const link = await shotOnFailure(ordering, 'shop-follow-link-order-390', async () => {
        await ordering.goto('/');
        const brand = ordering.getByRole('button', { name: /مانجو كوفي/ });
        await brand.waitFor();
        if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
        await ordering.getByRole('button', { name: /السالمية/ }).click();
        await ordering.waitForURL('**/products');
        await ordering.getByTestId('product-list').getByRole('link', { name: /كوكيز بالفستق/ }).click();
        await ordering.getByRole('heading', { name: 'كوكيز بالفستق' }).waitFor();
        await ordering.getByRole('button', { name: /أضف إلى السلة/ }).click();
        await ordering.waitForURL('**/products');
        await ordering.getByRole('link', { name: /عرض السلة/ }).click();
        await ordering.getByRole('link', { name: 'الدفع كضيف' }).click();
        await ordering.waitForURL('**/check-out');
        await ordering.getByLabel('الاسم').fill('نورة');
        await ordering.getByLabel('الهاتف').fill('50000071');
        await ordering.getByTestId('checkout-total').waitFor();
        await ordering.getByRole('button', { name: 'قدّم الطلب' }).click();
        await ordering.waitForURL('**/track-order?**');
        await ordering.getByRole('heading', { name: 'تم تقديم الطلب' }).waitFor();
        return new URL(ordering.url());
      });
      const orderId = Number(link.searchParams.get('orderId'));
      expect(link.searchParams.get('ohash')).toBeTruthy();

      await shotOnFailure(holder, 'shop-follow-link-second-390', async () => {
        // The second browser has nothing of the first: no token, no last order, no cart.
        await holder.goto(`${link.pathname}${link.search}`);
        await progress(holder).waitFor();
        expect(new URL(holder.url()).pathname).toBe('/track-order');
        expect(await holder.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('lastOrder')])).toEqual([null, null]);
        await holder.getByText('بانتظار قبول الفرع لطلبك.').waitFor();
        expect(await holder.getByTestId('order-number').textContent()).toMatch(/^B1-/);
        // Nothing of the customer's own: the name given at checkout is not on the holder's page.
        expect(await holder.getByText('نورة').count()).toBe(0);
        // The live stream is open (graphql-sse), not the fallback poll.
        await expect.poll(() => holder.getByTestId('order-tracking').getAttribute('data-status')).toBe('live');

        const staff = await server.api.login('branchuser');
        const seen: Record<string, number> = {};
        for (const [status, text] of [['accepted', 'قبل الفرع طلبك ويجري تحضيره.'], ['ready', 'طلبك جاهز. استلمه من الفرع.']] as const) {
          const at = Date.now();
          const res = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: staff, body: { orderId, status } });
          expect(res.status, JSON.stringify(res.body.error)).toBe(200);
          await holder.getByText(text).waitFor();
          seen[status] = Date.now() - at;
          expect(await progress(holder).getAttribute('data-status')).toBe(status);
        }
        console.log(`shop-follow-link: the second browser read accepted ${seen.accepted} ms and ready ${seen.ready} ms after the branch's REST call`);
        await holder.evaluate(() => window.scrollTo(0, 0));
        await screenshot(holder, 'shop-follow-link-ready-390');
        // One line at 390 px: the page is no wider than the phone.
        expect(await holder.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      });
      expect(errors).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('Order again (390 px, Arabic)', () => {
  it('on a previous order fills the cart at today\'s price and says what changed', async () => {
    const signedIn = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'customer', password: '123qwe' } });
    const { accessToken, userId } = signedIn.body.result;
    const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: 7, branchId: 1 } });
    const cookie = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Pistachio Cookie');
    const placed = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
      token: accessToken, headers: { 'idempotency-key': crypto.randomUUID() },
      body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: cookie.id, quantity: 2 }] },
    });
    expect(placed.status, JSON.stringify(placed.body.error)).toBe(200);
    const admin = await server.api.login('admin');
    const raised = Math.round((cookie.price + 0.1) * 1000) / 1000;
    expect((await server.api.put('/api/services/app/Products/UpdateProduct', { token: admin, body: { id: cookie.id, price: raised } })).status).toBe(200);
    const context = await newPhone();
    await context.addInitScript(([token, id]) => {
      if (!localStorage.getItem('token')) { localStorage.setItem('token', token); localStorage.setItem('userId', id); }
    }, [accessToken, String(userId)] as const);
    const page = await context.newPage();
    try {
      await shotOnFailure(page, 'shop-follow-reorder-390', async () => {
        await page.goto('/track/previous');
        await page.getByTestId('history-row').first().waitFor();
        await page.getByRole('button', { name: 'اطلب مجددًا' }).first().click();
        const notice = page.getByTestId('reorder-notice');
        await notice.waitFor();
        expect(await notice.getByRole('listitem').allTextContents()).toEqual([
          `سعر كوكيز بالفستق الآن ${raised.toFixed(3)} د.ك (كان ${cookie.price.toFixed(3)} د.ك).`,
        ]);
        const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
        expect(cart.map((i: any) => [i.product.id, i.product.Quantity, i.product.price])).toEqual([[cookie.id, 2, raised]]);
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'shop-follow-reorder-390');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await notice.getByRole('link', { name: 'اذهب إلى السلة' }).click();
        await page.waitForURL('**/cart');
        await page.getByText('كوكيز بالفستق').first().waitFor();
      });
    } finally {
      await context.close();
      await server.api.put('/api/services/app/Products/UpdateProduct', { token: admin, body: { id: cookie.id, price: cookie.price } });
    }
  });
});
