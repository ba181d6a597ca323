/**
 * Watches the timers and window/document listeners that the product's own code starts (a caller in
 * src/, machines/ or domain/; libraries and tests are theirs to manage), so a test can demand that
 * none outlives it. `check()` ends every one still running (nothing fires into a page that is gone)
 * and throws an error naming where each was started.
 */
const PRODUCT = /\/(src|machines|domain)\/[^\s)]+\.(tsx?|jsx?)(\?[^:\s)]*)?:\d+:\d+/;

/** `settles`: a timeout, which may still end by itself (cleared when the work it guards ends). */
interface Started { kind: string; at: string; end(): void; settles?: boolean }

/** The product's line that called the watched function, or null for a library's or a test's call. */
function callerIn(ours: RegExp): string | null {
  // The first frame outside this file is whoever called the watched function.
  const caller = (new Error().stack ?? '').split('\n').slice(1).find((l) => !l.includes('/tests/support/leakWatch.ts')) ?? '';
  if (caller.includes('node_modules')) return null;
  const m = ours.exec(caller);
  return m ? m[0].replace(/\?[^:]*/, '').replace(/^\//, '') : null;
}

/** `ours`: a stack frame of the code whose timers are watched (the product's, unless a test says otherwise). */
export function startLeakWatch(ours: RegExp = PRODUCT) {
  const productCaller = () => callerIn(ours);
  const live = new Map<unknown, Started>();
  let firedAfterEnd: ((s: Started) => void) | null = null;
  const g = globalThis as typeof globalThis & Record<string, unknown>;
  const realSetTimeout = g.setTimeout, realSetInterval = g.setInterval;
  const realClearTimeout = g.clearTimeout, realClearInterval = g.clearInterval;

  g.setTimeout = function setTimeout(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const at = productCaller();
    if (!at) return realSetTimeout(callback, ms, ...args);
    const started: Started = { kind: `setTimeout(…, ${ms ?? 0})`, at, end: () => realClearTimeout(handle as never), settles: true };
    const handle: unknown = realSetTimeout((...a: unknown[]) => { live.delete(key(handle)); firedAfterEnd?.(started); callback(...a); }, ms, ...args);
    live.set(key(handle), started);
    return handle;
  } as typeof g.setTimeout;
  g.setInterval = function setInterval(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const at = productCaller();
    const handle: unknown = realSetInterval(callback, ms, ...args);
    if (at) live.set(key(handle), { kind: `setInterval(…, ${ms ?? 0})`, at, end: () => realClearInterval(handle as never) });
    return handle;
  } as typeof g.setInterval;
  g.clearTimeout = function clearTimeout(handle?: unknown) { live.delete(key(handle)); realClearTimeout(handle as never); } as typeof g.clearTimeout;
  g.clearInterval = function clearInterval(handle?: unknown) { live.delete(key(handle)); realClearInterval(handle as never); } as typeof g.clearInterval;

  // Listeners on the long-lived targets: window and document outlive every component.
  const targets = typeof window === 'undefined' ? [] : [window, document];
  const restore: (() => void)[] = [() => Object.assign(g, { setTimeout: realSetTimeout, setInterval: realSetInterval, clearTimeout: realClearTimeout, clearInterval: realClearInterval })];
  const listenerKey = (target: EventTarget, type: string, listener: unknown, options: unknown) =>
    `${targets.indexOf(target as never)}|${type}|${capture(options)}|${idOf(listener)}`;
  for (const target of targets) {
    const realAdd = target.addEventListener, realRemove = target.removeEventListener;
    restore.push(() => Object.assign(target, { addEventListener: realAdd, removeEventListener: realRemove }));
    const add = realAdd.bind(target), remove = realRemove.bind(target);
    target.addEventListener = function addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
      const at = productCaller();
      if (at && listener && !(typeof options === 'object' && options.once)) {
        live.set(listenerKey(target, type, listener, options), { kind: `addEventListener('${type}')`, at, end: () => remove(type, listener, options) });
      }
      add(type, listener as EventListenerOrEventListenerObject, options);
    };
    target.removeEventListener = function removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) {
      live.delete(listenerKey(target, type, listener, options));
      remove(type, listener as EventListenerOrEventListenerObject, options);
    };
  }

  return {
    /** Puts the real functions back (a test's own watch; the suite's stays for the whole file). */
    stop() { for (const r of restore.reverse()) r(); },
    /**
     * After the test's cleanup: what the product started must be ended. Work still in flight (a chunk
     * loading, whose time-out ends with it) gets up to `graceMs` to end by itself; a timer that fires
     * meanwhile fired into a page that is gone, and counts as a leak like one still running.
     */
    async check(graceMs = 15_000) {
      const left = new Map(live);
      const fired: Started[] = [];
      firedAfterEnd = (s) => { if ([...left.values()].includes(s)) fired.push(s); };
      try {
        for (const until = Date.now() + graceMs; Date.now() < until && [...left].some(([k, s]) => s.settles && live.has(k));) {
          await new Promise((r) => realSetTimeout(r, 20));
        }
      } finally { firedAfterEnd = null; }
      const leaked = [...fired, ...[...left].filter(([k]) => live.has(k)).map(([, s]) => s)];
      for (const [k] of left) live.delete(k);
      for (const l of leaked) l.end();
      if (leaked.length) {
        throw new Error(`${leaked.length} timer(s) or listener(s) started by the product outlived the test (cleared now):\n${leaked.map((l) => `  ${l.kind} at ${l.at}`).join('\n')}`);
      }
    },
  };
}

/** Node's timers are objects, the browser's numbers: either is a key as it is. */
const key = (handle: unknown) => handle;
const capture = (options: unknown) => (typeof options === 'boolean' ? options : !!(options as { capture?: boolean } | undefined)?.capture);
const ids = new WeakMap<object, number>();
let nextId = 1;
function idOf(value: unknown): number {
  if (typeof value !== 'object' && typeof value !== 'function') return 0;
  let id = ids.get(value as object);
  if (!id) ids.set(value as object, (id = nextId++));
  return id;
}
