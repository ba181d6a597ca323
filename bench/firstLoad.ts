import { startServerProcess } from '../tests/support/serverProcess';
import { launchBrowser } from '../tests/support/browser';

/**
 * What a customer's browser downloads to show the shop's first screen, and a branch user's to show
 * the live order screen: JavaScript and CSS bytes as sent (brotli), and the time to the first product.
 * The baseline is the entry chunk alone, so the ratios show what each face adds to it.
 */
export async function benchFirstLoad() {
  const [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  try {
    const measure = async (path: string, ready: (page: import('playwright-core').Page) => Promise<unknown>, login?: string) => {
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      if (login) {
        await page.goto('/login');
        await page.getByLabel('User name, e-mail or phone').fill(login);
        await page.getByLabel('Password').fill('123qwe');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL('**/dashboard');
      }
      const assets: { url: string; type: string; bytes: number }[] = [];
      page.on('requestfinished', async (req) => {
        const type = req.resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        const sizes = await req.sizes();
        assets.push({ url: req.url(), type, bytes: sizes.responseBodySize });
      });
      const t0 = Date.now();
      await page.goto(path);
      await ready(page);
      const ms = Date.now() - t0;
      await page.waitForTimeout(300);
      await context.close();
      const js = assets.filter((a) => a.type === 'script').reduce((n, a) => n + a.bytes, 0);
      const css = assets.filter((a) => a.type === 'stylesheet').reduce((n, a) => n + a.bytes, 0);
      const entry = assets.find((a) => /\/assets\/index-[^/]+\.js$/.test(a.url))?.bytes ?? 0;
      return { js, css, entry, ms, files: assets.length };
    };
    const shop = await measure('/', (p) => p.getByTestId('product-list').getByText('Cappuccino').waitFor());
    const consoleOrders = await measure('/Currentorder', (p) => p.getByRole('heading', { name: 'Current Orders' }).first().waitFor(), 'branchuser');
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`entry chunk (baseline)            ${kb(shop.entry)}`);
    console.log(`shop first load: JS ${kb(shop.js)} (×${(shop.js / shop.entry).toFixed(2)})  CSS ${kb(shop.css)}  ${shop.files} files  first product after ${shop.ms} ms`);
    console.log(`console /Currentorder after sign-in (entry already cached): JS ${kb(consoleOrders.js)} (×${(consoleOrders.js / shop.entry).toFixed(2)})  CSS ${kb(consoleOrders.css)}  ready after ${consoleOrders.ms} ms`);
  } finally {
    await browser.close();
    await server.close();
  }
}
