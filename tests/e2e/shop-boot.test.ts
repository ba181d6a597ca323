import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHONE, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { chooseBranchScript, shopPages } from '../../bench/firstLoad';

/**
 * The shop's boot as issue 12's Lighthouse budget needs it (production build, dist/):
 * - the shell asks for the shop's chunk at once (modulepreload, scripts/build.ts), not a round trip
 *   after the entry has run, and the shop loads that very file, once;
 * - when Apollo arrives after the first screen (src/lib/gateway.tsx), the screen's answers move to its
 *   cache without the screen going back to 'Loading…' and without being asked again.
 */
const built = existsSync(path.resolve('dist/index.html'));

describe.skipIf(!built)('shop boot', () => {
  const { server, browser } = useServerAndBrowser();

  it('the shell modulepreloads the shop chunk that /products loads, and Apollo arrives without a Loading flash or a second read', async () => {
    const products = (await shopPages(server)).find((p) => p.path === '/products')!;
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, isMobile: true, hasTouch: true });
    await context.addInitScript(chooseBranchScript(products.chosen!));
    // Counts every time the list is replaced by the loading spinner once it has shown (the first screen flashing).
    await context.addInitScript(() => {
      const w = window as unknown as { flashes: number };
      w.flashes = 0;
      let shown = false;
      new MutationObserver(() => {
        const list = document.querySelector('[data-testid="product-list"]');
        if (list) shown = true;
        else if (shown && document.querySelector('.app-loading')) w.flashes += 1;
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await shotOnFailure(page, 'shop-boot-products-390', async () => {
      const scripts: string[] = [];
      const reads: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
        if (req.url().endsWith('/graphql') && req.method() === 'POST') reads.push(String(req.postDataJSON()?.operationName));
      });
      const shell = await (await page.goto('/products'))!.text();
      await products.ready(page);

      const preloaded = [...shell.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
      const shopChunk = scripts.find((s) => /\/ShopApp-[\w-]+\.js$/.test(s));
      expect(shopChunk, scripts.join(', ')).toBeTruthy();
      expect(preloaded).toContain(shopChunk);
      expect(scripts.filter((s) => s === shopChunk)).toHaveLength(1);

      await page.waitForRequest(/\/assets\/apollo-[\w-]+\.js$/, { timeout: 15_000 });
      // Apollo's load yields between its steps: give it time to take over every query of the screen.
      await page.waitForTimeout(1500);
      const readsBefore = [...reads];
      await page.waitForTimeout(1500);
      expect(reads, 'asked again after Apollo arrived').toEqual(readsBefore);
      expect(new Set(reads).size, reads.join(', ')).toBe(reads.length);
      await expect.poll(() => page.evaluate(() => (window as unknown as { flashes: number }).flashes)).toBe(0);
      await page.getByTestId('product-list').getByText('Cappuccino').first().waitFor();
    });
    await context.close();
  }, 90_000);
});
