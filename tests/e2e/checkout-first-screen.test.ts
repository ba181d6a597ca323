import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { PHONE, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { checkoutPages, chooseBranchScript, storeScript } from '../../bench/firstLoad';

/**
 * /check-out's first screen without Apollo (issue 24: Lighthouse mobile ≥ 95 on checkout), production
 * build: a signed-in customer with one cart line, as bench/lighthouse.ts opens it.
 * - While the checkout's options are on their way, the page is already drawn: its heading, the modes,
 *   the cart's line from storage, and placeholders where the payment methods and Place order go.
 * - With Apollo's file held back, the options, the cart's prices and the server's total come through
 *   the gateway's plain POST and Place order is enabled: nothing on the way to the order waits for Apollo.
 * - Nothing moves on the phone's screen as the options replace the placeholders (layout shift < 0.1,
 *   Lighthouse's "good").
 * - Once Apollo is let through, Place order places the order.
 */
const built = existsSync(path.resolve('dist/index.html'));

describe.skipIf(!built)('checkout first screen', () => {
  const { server, browser } = useServerAndBrowser();

  it('draws the page before its options and is ready to order before Apollo arrives, without moving', async () => {
    const checkout = (await checkoutPages(server)).find((p) => p.stored.language === 'en')!;
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, isMobile: true, hasTouch: true });
    await context.addInitScript(`${chooseBranchScript(checkout.chosen)} ${storeScript(checkout.stored)}`);
    // The layout shifts the page makes (those after a tap or a key do not count, as in Lighthouse).
    await context.addInitScript(() => {
      const w = window as unknown as { shifted: number };
      w.shifted = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.shifted += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    // Apollo's file and the checkout's payment methods are held until the test lets them go.
    const held: { apollo: Route[]; methods: Route[] } = { apollo: [], methods: [] };
    let holdApollo = true;
    let holdMethods = true;
    await page.route(/\/assets\/apollo-[\w-]+\.js$/, (route) => { if (holdApollo) held.apollo.push(route); else void route.continue(); });
    await page.route('**/graphql', (route) => {
      if (holdMethods && route.request().postDataJSON()?.operationName === 'CheckoutPaymentMethods') held.methods.push(route);
      else void route.continue();
    });
    await shotOnFailure(page, 'checkout-first-screen-390', async () => {
      await page.goto('/check-out');
      await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Loading the checkout…' }).waitFor({ state: 'attached' });
      const summary = page.getByRole('complementary', { name: 'Order summary' });
      await summary.getByText('Cappuccino').waitFor();
      await expect.poll(() => page.getByRole('radio', { name: /^Pick-up/ }).isChecked()).toBe(true);
      expect(await page.getByRole('button', { name: 'Place order' }).count()).toBe(0);
      await screenshot(page, 'checkout-first-screen-loading-390');

      holdMethods = false;
      for (const r of held.methods.splice(0)) await r.continue();
      const place = page.getByRole('button', { name: 'Place order' });
      await expect.poll(() => place.isEnabled(), { timeout: 15_000 }).toBe(true);
      await summary.getByTestId('checkout-total').waitFor();
      expect(await page.getByRole('radio', { name: /^Cash at branch/ }).isChecked()).toBe(true);
      await screenshot(page, 'checkout-first-screen-ready-390');
      expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBeLessThan(0.1);

      holdApollo = false;
      for (const r of held.apollo.splice(0)) await r.continue();
      await place.click();
      await page.waitForURL(/\/track-order\?/, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Order placed' }).waitFor();
    });
    await context.close();
  }, 120_000);
});
