import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { PHONE, launchBrowser, screenshot, shotOnFailure } from '../support/browser';

/**
 * Issue 24's last shop journeys in Chromium at 390 px: the signed-in header on one line in Arabic
 * and English; the tracker's times on Kuwait's clock in a browser set to UTC; Back from the
 * location picker to the checkout; paying with the wallet; Pay again from a tracking link opened
 * in another browser without a session.
 */
let server: ServerProcess;
let browser: Browser;
const API = '/api/services/app';
const CUSTOMER_ID = 5;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

/** A phone at 390 px in `language`, optionally in another time zone and signed in as the demo customer. */
async function phone(language: 'en' | 'ar', opts: { timezoneId?: string; signedIn?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: language === 'ar' ? 'ar-KW' : 'en-US', timezoneId: opts.timezoneId,
  });
  contexts.push(context);
  const token = opts.signedIn ? await server.api.login('customer') : null;
  await context.addInitScript(({ language, token, userId }) => {
    if (sessionStorage.getItem('init-done')) return;
    sessionStorage.setItem('init-done', '1');
    localStorage.setItem('language', language);
    if (token) {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
      localStorage.setItem('role', 'CUSTOMER');
    }
  }, { language, token, userId: CUSTOMER_ID });
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  return page;
}

/** Brand 7, branch 1 chosen, and one product added from its page; then the cart. */
async function cartWith(page: Page, product: RegExp, brand: RegExp, branch: RegExp, add: RegExp) {
  await page.goto('/');
  const b = page.getByRole('button', { name: brand });
  await b.waitFor();
  if ((await b.getAttribute('aria-expanded')) !== 'true') await b.click();
  await page.getByRole('button', { name: branch }).click();
  await page.waitForURL('**/products');
  await page.getByTestId('product-list').getByRole('link', { name: product }).first().click();
  await page.getByRole('button', { name: add }).click();
  await page.waitForURL('**/products');
  await page.goto('/cart');
}

/** The header's brand name and items: each on one line, none over the name, nothing wider than the screen. */
function headerLayout(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('.shop-header')!;
    const logo = header.querySelector('.shop-logo')!.getBoundingClientRect();
    const items = [...header.querySelectorAll('.shop-nav > *')].map((e) => ({ text: (e as HTMLElement).innerText.trim(), r: e.getBoundingClientRect() }));
    const rtl = document.documentElement.dir === 'rtl';
    const middles = new Set(items.map((i) => Math.round((i.r.top + i.r.bottom) / 2 / 4)));
    return {
      items: items.map((i) => i.text),
      overName: items.filter((i) => (rtl ? i.r.right > logo.left + 0.5 : i.r.left < logo.right - 0.5)).map((i) => i.text),
      tallest: Math.max(...items.map((i) => i.r.height)),
      rows: middles.size,
      logoWidth: logo.width,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

describe('the signed-in header at 390 px', () => {
  for (const language of ['ar', 'en'] as const) {
    it(`keeps the brand's name and every item on one line (${language})`, async () => {
      const page = await phone(language, { signedIn: true });
      await shotOnFailure(page, `shop-close-header-${language}`, async () => {
        await page.goto('/products');
        await page.getByTestId('product-list').waitFor();
        await page.getByTestId('notification-bell').waitFor();
        const layout = await headerLayout(page);
        await screenshot(page, `shop-close-header-signed-in-${language}-390`);
        expect(layout.overName, JSON.stringify(layout)).toEqual([]);
        expect(layout.rows, JSON.stringify(layout)).toBe(1);
        expect(layout.tallest, JSON.stringify(layout)).toBeLessThan(32);
        expect(layout.overflow).toBeLessThanOrEqual(0);
        // The brand's name is readable, not squeezed to an ellipsis.
        expect(await page.locator('.shop-logo').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
        // The account menu: the profile, the language and Logout, named for screen readers.
        const account = page.getByRole('button', { name: language === 'ar' ? 'قائمة الحساب' : 'Account menu' });
        await account.click();
        expect(await account.getAttribute('aria-expanded')).toBe('true');
        await page.getByRole('button', { name: language === 'ar' ? 'تسجيل الخروج' : 'Logout' }).waitFor();
        expect(await page.getByTestId('language-switch').textContent()).toBe(language === 'ar' ? 'English' : 'العربية');
        await screenshot(page, `shop-close-account-menu-${language}-390`);
        await page.getByRole('link', { name: 'Sara' }).click();
        await page.waitForURL('**/profile');
        expect(await account.getAttribute('aria-expanded')).toBe('false');
      });
    }, 120_000);
  }
});

describe("the tracker's times in a browser set to UTC", () => {
  it("reads the order's time and its ready estimate on Kuwait's clock", async () => {
    const token = await server.api.guestToken();
    const placed = await server.api.post(`${API}/Store/SaveNewOrderVS1`, {
      token, headers: { 'idempotency-key': `close-times-${Date.now()}` },
      body: { brandId: 7, paymentSystem: 2, guestCustomerName: 'Huda', guestPhoneNumber: '+96550000043', deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, ohash } = placed.body.result as { orderId: number; ohash: string };
    const detail = await server.api.get(`${API}/Store/GetOrderDetail`, { query: { orderId, ohash } });
    const clock = (iso: string, timeZone: string) => {
      const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }).formatToParts(new Date(iso));
      return `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
    };
    const page = await phone('en', { timezoneId: 'UTC' });
    await shotOnFailure(page, 'shop-close-times-utc', async () => {
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
      await page.goto(`/track-order?orderId=${orderId}&ohash=${encodeURIComponent(ohash)}`);
      const date = await page.getByTestId('order-date').textContent();
      expect(date).toContain(clock(detail.body.result.date, 'Asia/Kuwait'));
      expect(date).not.toContain(clock(detail.body.result.date, 'UTC'));
      const ready = await page.getByTestId('order-ready-estimate').textContent();
      expect(ready).toContain(clock(detail.body.result.readyEstimateAt, 'Asia/Kuwait'));
      await screenshot(page, 'shop-close-times-utc-390');
    });
  }, 120_000);
});

describe('Back from the location picker', () => {
  it('shows the checkout again, with the guest\'s details, not "Loading…"', async () => {
    const page = await phone('en');
    await shotOnFailure(page, 'shop-close-back-from-location', async () => {
      await cartWith(page, /Pistachio Cookie/, /Mango Coffee/, /Salmiya/, /Add to Cart/);
      await page.getByRole('link', { name: 'Checkout as guest' }).click();
      await page.waitForURL('**/check-out');
      await page.getByLabel('Name').fill('Huda');
      await page.locator('label', { has: page.getByRole('radio', { name: /Delivery/ }) }).click();
      await page.waitForURL('**/select-location**');
      await page.goBack();
      await page.waitForURL('**/check-out');
      await page.getByLabel('Name').waitFor({ timeout: 15_000 });
      expect(await page.getByLabel('Name').inputValue()).toBe('Huda');
      // One Place order, once the summary is drawn (it follows the name on a loaded machine).
      await page.getByRole('button', { name: 'Place order' }).waitFor();
      expect(await page.getByRole('button', { name: 'Place order' }).count()).toBe(1);
      await screenshot(page, 'shop-close-back-from-location-390');
    });
  }, 120_000);
});

describe('paying with the wallet (Arabic, 390 px)', () => {
  it('the summary shows what the wallet pays before Place order, the order is paid at once; a link opened elsewhere follows it and the bell reads accepted and ready', async () => {
    const admin = await server.api.login('admin');
    const set = await server.api.put(`${API}/Customer/UpdateCustomerWalletBalance`, { token: admin, body: { customerId: CUSTOMER_ID, brandId: 7, balance: 20, reason: 'Wallet story' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const page = await phone('ar', { signedIn: true });
    await shotOnFailure(page, 'shop-close-wallet-ar', async () => {
      await cartWith(page, /كوكيز بالفستق/, /مانجو كوفي/, /السالمية/, /أضف إلى السلة/);
      await page.getByRole('link', { name: 'المتابعة إلى الدفع' }).click();
      await page.waitForURL('**/check-out');
      const wallet = page.getByRole('checkbox', { name: 'ادفع من محفظتي' });
      await wallet.waitFor();
      expect(await page.getByTestId('wallet-balance').textContent()).toContain('20.000');
      const total = await page.getByTestId('checkout-total').textContent();
      await wallet.check();
      const paid = page.getByTestId('checkout-wallet');
      await paid.waitFor();
      expect(await paid.textContent()).toBe(total);
      await screenshot(page, 'shop-close-wallet-summary-ar-390');
      await page.getByRole('button', { name: 'قدّم الطلب' }).click();
      await page.waitForURL('**/track-order?**');
      await page.getByTestId('order-title').waitFor();
      expect(await page.getByTestId('order-payment').textContent()).toContain('المحفظة');
      await screenshot(page, 'shop-close-wallet-paid-ar-390');
    });
    // Issue 24's story: the link opened in a second browser follows the order, and the customer reads
    // "accepted" and "ready" in the bell.
    const link = new URL(page.url());
    const orderId = Number(link.searchParams.get('orderId'));
    const holder = await phone('ar');
    await shotOnFailure(holder, 'shop-close-follow-bell-ar', async () => {
      await holder.goto(`${link.pathname}${link.search}`);
      await holder.getByTestId('order-progress').waitFor();
      const staff = await server.api.login('branchuser');
      for (const [status, text] of [['accepted', 'قبل الفرع طلبك ويجري تحضيره.'], ['ready', 'طلبك جاهز. استلمه من الفرع.']] as const) {
        const res = await server.api.put(`${API}/Store/UpdateOrderStatus`, { token: staff, body: { orderId, status } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        await holder.getByText(text).waitFor();
      }
      await screenshot(holder, 'shop-close-follow-link-holder-ar-390');
    });
    await shotOnFailure(page, 'shop-close-bell-ar', async () => {
      await page.reload();
      await page.getByTestId('notification-count').filter({ hasText: '2' }).waitFor();
      await page.getByTestId('notification-bell').click();
      const texts = await page.getByTestId('notification-item').allTextContents();
      expect(texts.some((x) => x.includes('تم قبول طلبك ويجري تحضيره.')), texts.join(' | ')).toBe(true);
      expect(texts.some((x) => x.includes('طلبك جاهز.')), texts.join(' | ')).toBe(true);
      await screenshot(page, 'shop-close-bell-ar-390');
    });
  }, 240_000);
});

describe('Pay again from a tracking link, without a session', () => {
  it('opens the payment page of that order', async () => {
    const token = await server.api.guestToken();
    const placed = await server.api.post(`${API}/Store/SaveNewOrderVS1`, {
      token, headers: { 'idempotency-key': `close-again-${Date.now()}` },
      body: { brandId: 7, paymentSystem: 1, guestCustomerName: 'Huda', guestPhoneNumber: '+96550000043', deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, ohash, paymentUrl } = placed.body.result as { orderId: number; ohash: string; paymentUrl: string };
    const cancelled = await fetch(`${server.url}${paymentUrl}/cancel`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    const back = cancelled.headers.get('location')!;
    expect(back).toContain('payment=cancelled');
    const page = await phone('en');
    await shotOnFailure(page, 'shop-close-pay-again', async () => {
      await page.goto(back);
      const again = page.getByRole('button', { name: 'Pay again' });
      await again.waitFor();
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await screenshot(page, 'shop-close-pay-again-390');
      await again.click();
      await page.waitForURL('**/payments/sandbox/**');
      expect(orderId).toBeGreaterThan(0);
      expect(ohash).toBeTruthy();
    });
  }, 120_000);
});
