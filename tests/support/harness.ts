import path from 'node:path';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from './server';
import { serverProcessAt, startServerProcess, type ServerProcess, type ServerProcessOptions } from './serverProcess';
import type { StartOptions } from '../../app/start';

/**
 * One harness per kind of test. Each `use…()` registers the beforeAll that starts a thing and the
 * afterAll that closes it, in the suite where it is called (the file, or a describe), and returns a
 * handle typed as the thing itself: its fields read through to what started, inside tests and inside
 * hooks registered after it (hooks run in the order they were registered).
 *
 *   const server = useServer();                          // a server in this process (app.inject)
 *   const server = useServerProcess();                   // a server in a child process (HTTP)
 *   const { server, browser, openPage } = useServerAndBrowser();   // + Chromium, for browser stories
 */

/** Start-up time a loaded 2-core machine needs: a server process, the gateway, a browser (the slowest seen: 180 s files). */
const START_TIMEOUT_MS = 180_000;

/**
 * Starts `start()` before the suite's tests and closes it after them; the handle stands for what
 * started. Used as it is for what has no `use…()` of its own (a fake payment gateway, an emulator).
 */
export function useStarted<T extends object>(what: string, start: () => Promise<T>, close: (started: T) => Promise<unknown> = closeIt): T {
  return standIn(what, startedInSuite(start, close));
}

const closeIt = (started: object) => (started as { close(): Promise<unknown> }).close();

/** Registers the two hooks; answers what is running now (undefined before the start and after the close). */
function startedInSuite<T>(start: () => Promise<T>, close: (started: T) => Promise<unknown>): () => T | undefined {
  let started: T | undefined;
  beforeAll(async () => { started = await start(); }, START_TIMEOUT_MS);
  afterAll(async () => {
    const closing = started;
    started = undefined;
    if (closing) await close(closing);
  }, START_TIMEOUT_MS);
  return () => started;
}

/**
 * A stand-in for a thing started later: every property reads through to it (methods bound to it).
 * Before the start (or after the close) a read throws, naming the thing, instead of an undefined.
 */
function standIn<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const real = current();
      if (!real) {
        // Asked by `await`, inspection and pretty-printing: not a use.
        if (typeof key === 'symbol' || key === 'then' || key === 'toJSON') return undefined;
        throw new Error(`${what} is not running here: use it inside a test, or in a hook registered after the use…() call`);
      }
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    has: (_, key) => { const real = current(); return !!real && key in real; },
    ownKeys: () => { const real = current(); return real ? Reflect.ownKeys(real) : []; },
    getOwnPropertyDescriptor: (_, key) => {
      const real = current();
      const found = real && Reflect.getOwnPropertyDescriptor(real, key);
      return found ? { ...found, configurable: true } : undefined;
    },
  });
}

type Lazy<T> = T | (() => T);
const resolve = <T>(value: Lazy<T>): T => (typeof value === 'function' ? (value as () => T)() : value);

/**
 * A real server in this process on a fresh database (tests/support/server.ts startTestServer).
 * `opts` may be a function, read when the server starts (after the hooks above it ran).
 */
export function useServer(opts: Lazy<Partial<StartOptions>> = {}): TestServer {
  // Loaded here, not at the top: a browser story that only spawns a server process does not load the server.
  return useStarted('the test server', async () => (await import('./server')).startTestServer(resolve(opts)));
}

/**
 * A real server in a child process on a fresh database (tests/support/serverProcess.ts). `start`: its
 * options, or a function that starts it another way (a payment gateway's configuration).
 */
export function useServerProcess(start: ServerProcessOptions | (() => Promise<ServerProcess>) = {}): ServerProcess {
  return useStarted('the test server process', startProcess(start));
}

const startProcess = (start: ServerProcessOptions | (() => Promise<ServerProcess>)) => {
  if (typeof start === 'function') return start;
  return Object.keys(start).length ? () => startServerProcess(start) : takeServerProcess;
};

/**
 * A server process with the default options: the e2e project's spare (tests/support/e2eSetup.ts),
 * started while the file before ran, or one of its own where there is no spare.
 */
async function takeServerProcess(): Promise<ServerProcess> {
  const pool = inject('serverPool');
  const taken = pool ? await fetch(`${pool}/take`, { method: 'POST' }) : null;
  if (taken?.status !== 200) return startServerProcess();
  const { url, outboxUrl, pid } = (await taken.json()) as { url: string; outboxUrl: string; pid: number };
  return serverProcessAt({ url, outboxUrl, close: async () => { await fetch(`${pool}/close?pid=${pid}`, { method: 'POST' }); } });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint (tests/support/e2eSetup.ts), in the e2e project. */
    chromiumEndpoint?: string;
    /** Where a file takes the spare server process (tests/support/e2eSetup.ts), in the e2e project. */
    serverPool?: string;
  }
}

/**
 * Chromium for this file: a connection to the one Chromium the e2e project shares
 * (tests/support/e2eSetup.ts), or a browser of its own elsewhere. Closing it closes this
 * file's contexts and pages; the shared Chromium goes on for the next file.
 */
async function openBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  // Loaded here: the jsdom tests' servers need no browser library.
  const [{ chromium }, { launchBrowser }] = await Promise.all([import('playwright-core'), import('./browser')]);
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}

/** Slug of a test's name, for a screenshot's file name. */
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);

/**
 * After each test: when it failed, every page still open is kept as
 * tests/.artifacts/screenshots/<file>-<test>-failed[-n].png; then the contexts `openPage` made are closed.
 */
function pageUpkeep(browser: Browser, opened: Set<BrowserContext>) {
  afterEach(async ({ task }) => {
    try {
      if (task.result?.state === 'fail') {
        const { screenshot } = await import('./browser');
        const name = `${path.basename(task.file.name).replace(/\.test\.ts$/, '')}-${slug(task.name)}-failed`;
        const pages = browser.contexts().flatMap((c) => c.pages());
        await Promise.all(pages.map((page, i) => screenshot(page, i ? `${name}-${i}` : name).catch(() => {})));
      }
    } catch {
      // No browser (its start failed): the test's own error says why.
    } finally {
      await Promise.all([...opened].map((c) => c.close().catch(() => {})));
      opened.clear();
    }
  });
}

/** Chromium for the suite, with the screenshot-on-failure step. */
export function useBrowser(): Browser {
  const browser = useStarted('the browser', openBrowser);
  pageUpkeep(browser, new Set());
  return browser;
}

export interface ServerAndBrowser {
  server: ServerProcess;
  browser: Browser;
  /** A page in a new context on the server's URL (desktop unless told), closed after the test. */
  openPage(viewport?: { width: number; height: number }): Promise<Page>;
}

/**
 * A server process and Chromium, started together, for the browser stories; failed tests leave
 * screenshots of their open pages, and `openPage` contexts close after each test.
 */
export function useServerAndBrowser(start: ServerProcessOptions | (() => Promise<ServerProcess>) = {}): ServerAndBrowser {
  const both = startedInSuite(
    async () => {
      const [server, browser] = await Promise.allSettled([startProcess(start)(), openBrowser()]);
      if (server.status === 'fulfilled' && browser.status === 'fulfilled') return { server: server.value, browser: browser.value };
      // One of the two started: it is closed, so nothing outlives the failed start.
      await Promise.all([server.status === 'fulfilled' && server.value.close(), browser.status === 'fulfilled' && browser.value.close()]);
      throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
    },
    async ({ server, browser }) => { await browser.close(); await server.close(); });
  const server = standIn<ServerProcess>('the test server process', () => both()?.server);
  const browser = standIn<Browser>('the browser', () => both()?.browser);
  const opened = new Set<BrowserContext>();
  pageUpkeep(browser, opened);
  return {
    server,
    browser,
    async openPage(viewport) {
      const { DESKTOP, newContext } = await import('./browser');
      const context = await newContext(browser, server.url, viewport ?? DESKTOP);
      opened.add(context);
      return context.newPage();
    },
  };
}
