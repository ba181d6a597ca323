import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';
import { TEXT } from '../../domain/constants';

/**
 * The Content-Security-Policy (server/http/security.ts) in real Chromium: the shop (home, a product,
 * the address page with its OpenLayers map, login), the sandbox payment page and the console (the
 * dashboard, an order screen with its live feed and an order's drawer, as admin) all render
 * under it without a single violation. Violations are caught twice: Chromium's console message and
 * the page's `securitypolicyviolation` event.
 */
const { server, browser } = useServerAndBrowser();

/** A browser context that records every CSP violation of any of its pages. */
async function watchedContext(viewport: { width: number; height: number }) {
  const context = await newContext(browser, server.url, viewport);
  const violations: string[] = [];
  await context.exposeBinding('__cspViolation', ({ page }, text: string) => { violations.push(`${page.url()}: ${text}`); });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(text: string): void }).__cspViolation(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  context.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) violations.push(`${msg.page()?.url()}: ${msg.text()}`);
  });
  return { context, violations };
}

/** The document's answer carries the app's policy: without it, "no violations" would prove nothing. */
function expectAppPolicy(response: Response | null) {
  const directives = Object.fromEntries((response?.headers()['content-security-policy'] ?? '').split(';')
    .map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources.join(' ')]));
  expect(directives['script-src']).toBe("'self'");
  expect(directives['style-src']).toBe("'self'");
}

const step = <T>(page: Page, name: string, work: () => Promise<T>) => shotOnFailure(page, `csp-${name}`, work);

describe('the Content-Security-Policy in Chromium', () => {
  let context: BrowserContext | undefined;
  afterAll(async () => { await context?.close(); });

  it('reports a violation when one happens (the watcher works)', async () => {
    const watched = await watchedContext(PHONE);
    context = watched.context;
    const page = await context.newPage();
    expectAppPolicy(await page.goto('/login'));
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.appendChild(script);
    });
    await expect.poll(() => watched.violations.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await context.close();
    context = undefined;
  });

  it('the shop renders its home, a product, the address map, login, the profile and the sandbox payment page without a violation', async () => {
    const watched = await watchedContext(PHONE);
    context = watched.context;
    const page = await context.newPage();
    const t0 = Date.now();

    await step(page, 'home', async () => {
      expectAppPolicy(await page.goto('/'));
      await page.getByRole('button', { name: /Mango Coffee/ }).waitFor();
      await page.getByTestId('product-list').getByText('Cappuccino').waitFor();
      await screenshot(page, 'csp-shop-home-390');
    });

    const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: 7, branchId: 1 } });
    const product = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((x: any) => x.products)).find((p: any) => p.name === 'Cappuccino');
    await step(page, 'product', async () => {
      expectAppPolicy(await page.goto(`/product-detail/${product.id}`));
      await page.getByTestId('product-carousel').waitFor();
      await page.getByRole('button', { name: /Add to Cart/ }).waitFor();
      await screenshot(page, 'csp-shop-product-390');
    });

    await step(page, 'address', async () => {
      expectAppPolicy(await page.goto('/address-details'));
      await page.getByTestId('address-map').locator('canvas').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('address-map').getAttribute('data-marker-x')).not.toBeNull();
      await screenshot(page, 'csp-shop-address-map-390');
    });

    await step(page, 'login', async () => {
      expectAppPolicy(await page.goto('/login'));
      await page.getByLabel('User name, e-mail or phone').fill('customer');
      await page.getByLabel('Password').fill('123qwe');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/profile');
      await page.getByTestId('profile-name').waitFor();
    });

    // The sandbox payment page is server-rendered with its own policy; Pay posts and returns to the shop.
    const customer = await server.api.login('customer');
    const order = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
      token: customer, headers: { 'idempotency-key': `csp-${Date.now()}` },
      body: { brandId: 7, paymentSystem: 1, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    await step(page, 'sandbox', async () => {
      const res = await page.goto(order.body.result.paymentUrl);
      expect(res?.headers()['content-security-policy']).toContain("style-src 'sha256-");
      await page.getByRole('button', { name: 'Pay' }).waitFor();
      // The page's own stylesheet applied: the Pay button is green.
      expect(await page.getByRole('button', { name: 'Pay' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(31, 122, 77)');
      await screenshot(page, 'csp-sandbox-payment-390');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL('**/track-order?**');
      await page.getByRole('heading', { name: TEXT.transactionSuccess }).waitFor();
    });

    console.log(`shop pages under the CSP in ${Date.now() - t0} ms`);
    expect(watched.violations).toEqual([]);
    await context.close();
    context = undefined;
  });

  it('the console renders the dashboard, an order screen with its live feed and an order\'s drawer without a violation', async () => {
    const orderId = await placeGuestOrder(server.api, { name: 'CSP Guest' });
    const watched = await watchedContext(DESKTOP);
    context = watched.context;
    const page = await context.newPage();
    const t0 = Date.now();

    await step(page, 'dashboard', async () => {
      expectAppPolicy(await page.goto('/login'));
      await page.getByLabel('User name, e-mail or phone').fill('admin');
      await page.getByLabel('Password').fill('123qwe');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('Welcome, Amal Admin').waitFor();
      await screenshot(page, 'csp-console-dashboard');
    });

    await step(page, 'orders', async () => {
      await page.getByRole('complementary', { name: 'Main menu' }).getByText('All Orders', { exact: true }).click();
      await page.waitForURL('**/order');
      await page.getByRole('heading', { name: 'All Orders', exact: true }).waitFor();
      // The live feed is the gateway's SSE subscription on /graphql: connect-src 'self' must carry it.
      await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor({ timeout: 30_000 });
      const row = page.locator(`[data-order-id="${orderId}"][data-column="customer"]`);
      await row.waitFor();
      await row.click();
      await page.locator('.order-drawer').getByTestId('order-items').waitFor();
      await screenshot(page, 'csp-console-order-drawer');
    });

    // A reload of a deep console route: the shell again, under the same policy.
    await step(page, 'reload', async () => {
      expectAppPolicy(await page.reload());
      await page.getByRole('heading', { name: 'All Orders', exact: true }).waitFor();
    });

    console.log(`console pages under the CSP in ${Date.now() - t0} ms`);
    expect(watched.violations).toEqual([]);
    await context.close();
    context = undefined;
  });
});
