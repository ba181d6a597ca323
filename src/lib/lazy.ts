import { createElement, lazy, type ComponentType } from 'react';
import { TIMINGS } from '../../domain/constants';

/**
 * A page's code file that could not be loaded. `retry` makes the next render load it again:
 * React.lazy keeps a failed load for good, which is what blanked the shop.
 */
export class ChunkLoadError extends Error {
  constructor(readonly cause: unknown, readonly retry: () => void) {
    super('This page could not be loaded.');
    this.name = 'ChunkLoadError';
  }
}

const RELOADED_KEY = 'chunkReloadedFor';

/** The entry script this page runs (Vite's hashed `/assets/index-….js`). */
function runningEntry(): string | null {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/**
 * A stale deploy: the shell the server serves now names another entry than the one running,
 * so the old code files are gone. Reload once to the new one (per new entry, so it never loops);
 * resolves false when this is not a stale deploy (offline, a passing error) or a reload was done.
 */
async function reloadIfStaleDeploy(): Promise<boolean> {
  const entry = runningEntry();
  if (!entry) return false;
  let shell: string;
  try {
    const res = await fetch('/', { cache: 'no-store', headers: { Accept: 'text/html' } });
    if (!res.ok) return false;
    shell = await res.text();
  } catch {
    return false;
  }
  const served = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(shell)?.[1] ?? null;
  if (!served || served === entry) return false;
  try {
    if (sessionStorage.getItem(RELOADED_KEY) === served) return false;
    sessionStorage.setItem(RELOADED_KEY, served);
  } catch {
    return false; // without storage a reload could loop
  }
  window.location.reload();
  return true;
}

/** The module URL in a failed dynamic import's message (Chromium, Firefox); null when not named. */
function urlOfFailedImport(cause: unknown): string | null {
  const url = /(https?:\/\/[^\s'"]+?\.js)\b/.exec(String((cause as Error | undefined)?.message ?? ''))?.[1];
  return url && url.startsWith(window.location.origin) ? url : null;
}

/** `load`'s answer, or a time-out error after `ms`; the timer ends with the load either way. */
function withTimeout<T>(load: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('Loading chunk timed out')), ms); });
  return Promise.race([load, late]).finally(() => clearTimeout(timer));
}

/**
 * An import() that can be tried again after it failed. Chromium keeps a failed import() of a URL
 * for good (the module map), so a retry imports the file that failed (named in the error) under a
 * fresh query; its own imports are the usual files. Where the error names no file, the original
 * import is called again.
 */
export function retryableImport<T>(load: () => Promise<T>): () => Promise<T> {
  let failedUrl: string | null = null;
  let attempt = 0;
  return () => (failedUrl ? import(/* @vite-ignore */ `${failedUrl}?retry=${++attempt}`) as Promise<T> : load())
    .catch((cause: unknown) => {
      failedUrl = urlOfFailedImport(cause) ?? failedUrl;
      throw cause;
    });
}

/**
 * React.lazy whose load fails after SPEC.md's 120 s time-out instead of hanging, reloads once on
 * a stale deploy, and otherwise throws a ChunkLoadError that a RouteErrorBoundary shows with Retry.
 */
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ComponentType<any> & { preload(): void } {
  const loadOnce = retryableImport(load);
  const make = () => lazy(() => withTimeout(loadOnce(), TIMINGS.chunkTimeoutMs).catch(async (cause: unknown) => {
    // While the page reloads, stay in the loading state rather than flash the message.
    if (await reloadIfStaleDeploy()) return new Promise<never>(() => {});
    throw new ChunkLoadError(cause, () => { current = make(); });
  }));
  let current = make();
  return Object.assign(function Chunk(props: any) {
    return createElement(current, props);
  }, {
    /** Starts the download before the screen is rendered (a failure is left to the render, which shows it). */
    preload: () => { loadOnce().catch(() => {}); },
  });
}
