import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('tests/.artifacts/screenshots');

/** How every test starts Chromium, on its own (launchBrowser) or shared by the e2e project (e2eSetup.ts). */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--autoplay-policy=no-user-gesture-required'],
};

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export async function newContext(browser: Browser, baseURL: string, viewport: { width: number; height: number } = DESKTOP): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, deviceScaleFactor: 1 });
}

/**
 * SCREENSHOTS=failures (.ci/run): only pictures of a failure are taken (a name with "failed" in it,
 * as shotOnFailure and the tests' own catch blocks name them). Nobody looks at CI's others, and each
 * full-page picture costs a core 100-200 ms (about 450 a run). Unset, every one is taken, to be looked at.
 */
const ONLY_FAILURES = process.env.SCREENSHOTS === 'failures';

/** Saves a screenshot under tests/.artifacts/screenshots/<name>.png and returns its path (null when SCREENSHOTS=failures skips it). */
export async function screenshot(page: Page, name: string) {
  if (ONLY_FAILURES && !name.includes('failed')) return null;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Signs in on /login and waits until the app has left it: staff land on their home (a branch user
 * on /order, the others on /dashboard: domain/permissions.ts homeFor), customers on /profile.
 */
export async function signIn(page: Page, login: string, password = '123qwe') {
  await page.goto('/login');
  await page.getByLabel('User name, e-mail or phone').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Runs one step of a browser story; when it fails, the page is kept as `<name>-failed.png` before the error goes on. */
export async function shotOnFailure<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await screenshot(page, `${name}-failed`).catch(() => {});
    throw error;
  }
}

/**
 * Counts the page's gateway calls (POST /graphql; a subscription's event stream is not a call that
 * ends). `quiet()` resolves once none is in flight and none has started or ended for `ms`: what the
 * screen asked on arrival is answered and drawn. Cheaper than Playwright's 'networkidle', which also
 * waits for chunks, images and the service worker, and is the condition a screen's data needs.
 */
export function watchGateway(page: Page) {
  let inFlight = 0;
  let last = Date.now();
  const isCall = (r: Request) => new URL(r.url()).pathname === '/graphql' && r.method() === 'POST' && !(r.headers().accept ?? '').includes('text/event-stream');
  page.on('request', (r) => { if (isCall(r)) { inFlight += 1; last = Date.now(); } });
  const ended = (r: Request) => { if (isCall(r)) { inFlight -= 1; last = Date.now(); } };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    /** Resolves when the gateway has been quiet for `ms` (at most `timeoutMs`: then it fails). */
    async quiet(ms = 300, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - last < ms) {
        if (Date.now() > until) throw new Error(`the gateway was not quiet for ${ms} ms within ${timeoutMs} ms (${inFlight} in flight)`);
        await page.waitForTimeout(50);
      }
    },
  };
}
