import { request } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../tests/support/serverProcess';
import { PHONE, launchBrowser, screenshot, signIn } from '../tests/support/browser';
import { CURRENCY_CODE, DEFAULT_BRAND_ID, DEFAULT_BRANCH_ID } from '../domain/constants';

/** Issue 12's budget: the shop's first load, as served to a phone, in JavaScript gzip. */
export const FIRST_LOAD_BUDGET_KB = 120;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** A product of the default branch's menu, by name, as the menu lists it. */
async function menuProduct(server: ServerProcess, name: string) {
  const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: DEFAULT_BRAND_ID, branchId: DEFAULT_BRANCH_ID } });
  return menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === name);
}

/** The three shop pages of the budget, each opened in a fresh phone context (empty cache) as a customer reaches it. */

export async function shopPages(server: ServerProcess) {
  const cappuccino = await menuProduct(server, 'Cappuccino');
  // The brand and branch a returning customer chose (src/shop/shopContext.tsx persistSelection), so /products
  // and a product page open as they do for them, not the brand picker.
  const chosen = { brandId: DEFAULT_BRAND_ID, branchId: DEFAULT_BRANCH_ID, currency: CURRENCY_CODE };
  return [
    { name: 'home /', path: '/', chosen: null, ready: (p: Page) => p.getByRole('button', { name: /Mango Coffee/ }).waitFor() },
    { name: '/products', path: '/products', chosen, ready: (p: Page) => p.getByTestId('product-list').getByText('Cappuccino').first().waitFor() },
    { name: `product /product-detail/${cappuccino.id}`, path: `/product-detail/${cappuccino.id}`, chosen, ready: (p: Page) => p.getByTestId('product-carousel').waitFor() },
  ];
}

/**
 * /check-out as a returning customer reaches it (bench/lighthouse.ts only; the first-load budget keeps its
 * three pages): signed in through the API as the shop stores a session (token, userId, role: src/lib/session.tsx),
 * the brand and branch chosen, one line in the cart (`cartItems`, machines/cart.ts's CartItem: 1 × Cappuccino
 * Large, SPEC.md 3's shape), in English and in Arabic (the shop's stored language).
 */
export async function checkoutPages(server: ServerProcess) {
  const signIn = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'customer', password: '123qwe' } });
  const { accessToken, userId } = signIn.body.result as { accessToken: string; userId: number };
  const listed = await menuProduct(server, 'Cappuccino');
  const detail = (await server.api.get('/api/services/app/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct', { query: { productid: listed.id, branchId: DEFAULT_BRANCH_ID } })).body.result;
  const large = detail.optionGroups.find((g: any) => g.name === 'Size').subItem.find((o: any) => o.name === 'Large');
  const cart = [{
    key: 'bench0',
    product: { id: detail.id, name: detail.name, price: detail.price, Quantity: 1, productImage: detail.productImage, productDeliveryText: detail.productDeliveryText },
    selected_options: [{ id: large.id, name: large.name, price: large.price }],
  }];
  const chosen = { brandId: DEFAULT_BRAND_ID, branchId: DEFAULT_BRANCH_ID, currency: CURRENCY_CODE };
  const stored = (language: 'en' | 'ar') => ({ token: accessToken, userId: String(userId), role: 'CUSTOMER', cartItems: JSON.stringify(cart), language });
  const ready = (p: Page) => p.getByRole('button', { name: /Place order|قدّم الطلب/ }).waitFor();
  return [
    { name: '/check-out (customer, en)', path: '/check-out', chosen, stored: stored('en'), ready },
    { name: '/check-out (customer, ar)', path: '/check-out', chosen, stored: stored('ar'), ready },
  ];
}

/** Values written into the shop's storage before the page opens (src/lib/storage.ts KEYS). */
export function storeScript(values: Record<string, string>) {
  return `try { ${Object.entries(values).map(([k, v]) => `localStorage.setItem(${JSON.stringify(k)}, ${JSON.stringify(v)});`).join(' ')} } catch {}`;
}

/** The stored choice as the shop writes it (src/lib/storage.ts KEYS). */
export function chooseBranchScript(chosen: { brandId: number; branchId: number; currency: string }) {
  return `try {
    localStorage.setItem('shopSelection', ${JSON.stringify(JSON.stringify(chosen))});
    localStorage.setItem('brandId', '${chosen.brandId}');
    localStorage.setItem('branchId', '${chosen.branchId}');
    localStorage.setItem('currency', ${JSON.stringify(chosen.currency)});
  } catch {}`;
}

/** The bytes the server sends for a URL with this Accept-Encoding (the body as it travels, not decoded). */
function servedBytes(url: string, encoding: 'gzip' | 'br' | 'identity'): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

/** How long the bench keeps listening after the first screen, for what the page loads later (Apollo, src/lib/gateway.tsx). */
const AFTER_MS = 5000;

/**
 * The scripts a fresh phone browser requests until the page is ready (the first load), and those it
 * requests in the AFTER_MS that follow (Apollo Client, loaded once the first screen has rendered).
 */
export async function scriptsOf(browser: Browser, baseURL: string, page: Awaited<ReturnType<typeof shopPages>>[number]) {
  const context = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
  if (page.chosen) await context.addInitScript(chooseBranchScript(page.chosen));
  const p = await context.newPage();
  const urls = new Set<string>();
  const later = new Set<string>();
  let ready = false;
  p.on('request', (req) => { if (req.resourceType() === 'script') (ready ? later : urls).add(req.url()); });
  const t0 = Date.now();
  await p.goto(page.path);
  await page.ready(p);
  ready = true;
  const ms = Date.now() - t0;
  await p.waitForTimeout(AFTER_MS);
  await context.close();
  return { urls: [...urls], later: [...later].filter((u) => !urls.has(u)), ms };
}

type ChunkContents = { length: number; libs: Map<string, number> };

/**
 * What each chunk holds, by library, from a build of the same sources with a plugin that reads Rollup's
 * rendered modules (dist has no source maps). The modules' code there is not yet minified, so a library's
 * share of a chunk is its share of the chunk's rendered bytes, applied to the chunk's served size: an
 * estimate, as source-map-explorer makes one.
 */
async function chunkContents(): Promise<Map<string, ChunkContents>> {
  const { build } = await import('vite');
  const byFile = new Map<string, ChunkContents>();
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { write: false },
    plugins: [{
      name: 'bench-chunk-contents',
      generateBundle(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          const libs = new Map<string, number>();
          for (const [id, mod] of Object.entries(chunk.modules)) {
            if (!mod.code) continue;
            const lib = libraryOf(id);
            libs.set(lib, (libs.get(lib) ?? 0) + Buffer.byteLength(mod.code));
          }
          byFile.set(path.basename(chunk.fileName), { length: Buffer.byteLength(chunk.code), libs });
        }
      },
    }],
  });
  return byFile;
}

/**
 * The rebuilt chunk of a served file: the same file name while the sources are unchanged since dist was
 * built, else the chunk of the same name (Rollup's name before the hash) nearest in size.
 */
function matchChunk(contents: Map<string, ChunkContents>, fileName: string, rawBytes: number): Map<string, number> {
  const exact = contents.get(fileName);
  if (exact) return exact.libs;
  const stem = (f: string) => f.replace(/-[\w-]{8}\.js$/, '');
  const candidates = [...contents].filter(([f]) => stem(f) === stem(fileName));
  candidates.sort((a, b) => Math.abs(a[1].length - rawBytes) - Math.abs(b[1].length - rawBytes));
  return candidates[0]?.[1].libs ?? new Map<string, number>();
}

/** node_modules/<pkg> (or @scope/pkg) for a module id; the app's own code by top folder. */
function libraryOf(id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = clean.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const rel = path.relative(process.cwd(), clean);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return '(virtual)';
  const [top, second] = rel.split('/');
  return top === 'src' && second && !second.includes('.') ? `app: src/${second}` : `app: ${top}`;
}

type Served = { url: string; gzip: number; br: number; raw: number };
export type FirstLoad = { name: string; ms: number; files: Served[]; later: Served[] };

/** Each budget page's first load (and what comes after it), with every file's bytes as served gzip, brotli and raw. */
export async function measureFirstLoad(browser: Browser, server: ServerProcess): Promise<FirstLoad[]> {
  const measured: FirstLoad[] = [];
  // Files too small for a compressed twin are sent as they are, under either encoding.
  const served = (list: string[]) => Promise.all(list.map(async (url): Promise<Served> => {
    const [gz, br, raw] = await Promise.all([servedBytes(url, 'gzip'), servedBytes(url, 'br'), servedBytes(url, 'identity')]);
    return { url, gzip: gz.bytes, br: br.bytes, raw: raw.bytes };
  }));
  for (const page of await shopPages(server)) {
    const { urls, later, ms } = await scriptsOf(browser, server.url, page);
    measured.push({ name: page.name, ms, files: (await served(urls)).sort((a, b) => b.gzip - a.gzip), later: await served(later) });
  }
  return measured;
}

/**
 * What a customer's phone downloads to show the shop's home, /products and a product page (issue 12's
 * budget, as gzip; the brotli twins the server also sends are beside it), chunk by chunk and by library,
 * and a branch user's live order screen after sign-in as before.
 */
export async function benchFirstLoad() {
  const [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  try {
    const measured = await measureFirstLoad(browser, server);

    console.log(`shop first load on a phone (390 px, empty cache), JavaScript as served — budget ${FIRST_LOAD_BUDGET_KB} KB gzip:`);
    for (const m of measured) {
      const gz = m.files.reduce((n, f) => n + f.gzip, 0);
      const br = m.files.reduce((n, f) => n + f.br, 0);
      const verdict = gz <= FIRST_LOAD_BUDGET_KB * 1024 ? 'within' : 'OVER';
      console.log(`  ${m.name.padEnd(28)} ${kb(gz).padStart(9)} gzip  (budget ${FIRST_LOAD_BUDGET_KB} KB, ${verdict})  ${kb(br).padStart(9)} brotli  ${m.files.length} files  ready after ${m.ms} ms`);
    }
    console.log(`  then, after the first screen (within ${AFTER_MS / 1000} s; Apollo Client, src/lib/gateway.tsx), not counted in the budget:`);
    for (const m of measured) {
      const gz = m.later.reduce((n, f) => n + f.gzip, 0);
      const br = m.later.reduce((n, f) => n + f.br, 0);
      const names = m.later.map((f) => path.basename(new URL(f.url).pathname)).join(', ');
      console.log(`  ${m.name.padEnd(28)} ${kb(gz).padStart(9)} gzip  ${kb(br).padStart(9)} brotli  ${names || 'nothing'}`);
    }

    const contents = await chunkContents().catch((e) => { console.log(`  (chunk contents unavailable: ${e.message})`); return new Map(); });
    const all = new Map<string, { gzip: number; br: number; raw: number; pages: string[] }>();
    for (const m of measured) for (const f of m.files) {
      const name = path.basename(new URL(f.url).pathname);
      const row = all.get(name) ?? { gzip: f.gzip, br: f.br, raw: f.raw, pages: [] };
      row.pages.push(m.name.split(' ')[0]);
      all.set(name, row);
    }
    console.log('  by chunk (gzip / brotli, pages that load it):');
    for (const [name, row] of [...all].sort((a, b) => b[1].gzip - a[1].gzip)) {
      console.log(`    ${name.padEnd(34)} ${kb(row.gzip).padStart(9)} ${kb(row.br).padStart(9)}  ${row.pages.join(', ')}`);
    }
    if (contents.size) {
      const libs = new Map<string, { gzip: number; br: number }>();
      for (const [name, row] of all) {
        const parts = matchChunk(contents, name, row.raw);
        const total = [...parts.values()].reduce((n, b) => n + b, 0);
        for (const [lib, bytes] of parts) {
          const share = libs.get(lib) ?? { gzip: 0, br: 0 };
          share.gzip += (row.gzip * bytes) / total;
          share.br += (row.br * bytes) / total;
          libs.set(lib, share);
        }
      }
      console.log('  by library, over every chunk any of the three pages loads (share of each chunk\'s served bytes, estimated):');
      for (const [lib, share] of [...libs].sort((a, b) => b[1].gzip - a[1].gzip).slice(0, 25)) {
        console.log(`    ${lib.padEnd(34)} ${kb(share.gzip).padStart(9)} gzip ${kb(share.br).padStart(9)} brotli`);
      }
    }

    // A branch user's live order screen after sign-in (the entry is then cached), as sent to Chromium (brotli).
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    try {
      await signIn(page, 'branchuser');
      const sizes: Promise<number>[] = [];
      page.on('requestfinished', (req) => { if (req.resourceType() === 'script') sizes.push(req.sizes().then((s) => s.responseBodySize)); });
      const t0 = Date.now();
      await page.goto('/Currentorder');
      await page.getByRole('heading', { name: 'Current Orders' }).first().waitFor({ timeout: 60_000 });
      const ms = Date.now() - t0;
      await page.waitForTimeout(300);
      const js = (await Promise.all(sizes)).reduce((n, b) => n + b, 0);
      console.log(`console /Currentorder after sign-in (entry already cached): JS ${kb(js)} brotli  ready after ${ms} ms`);
    } catch (error) {
      await screenshot(page, 'bench-firstload-console-failed').catch(() => {});
      console.log(`console /Currentorder: not measured (${(error as Error).message.split('\n')[0]})`);
    } finally {
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
