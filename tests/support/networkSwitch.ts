/**
 * The app's network cable, for jsdom tests: while "unplugged", the app's requests to the gateway
 * (/graphql, the only address it speaks to) fail as a browser's do, open streams (the live order
 * feed) break, and the browser says it is offline (navigator.onLine, the offline/online events).
 * The test's own REST calls (/api/...) still go through, like another client placing orders.
 */
export function installNetworkSwitch() {
  const realFetch = globalThis.fetch;
  let online = true;
  const open = new Set<AbortController>();
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });

  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/graphql')) return realFetch(input, init);
    if (!online) throw new TypeError('Failed to fetch');
    const controller = new AbortController();
    init?.signal?.addEventListener('abort', () => controller.abort(init.signal!.reason));
    open.add(controller);
    try {
      const res = await realFetch(input, { ...init, signal: controller.signal });
      if (!res.body) return res;
      // Keep the controller while the body streams, so unplugging breaks it.
      const reader = res.body.getReader();
      const body = new ReadableStream({
        async pull(c) {
          try {
            const { value, done } = await reader.read();
            if (done) { open.delete(controller); c.close(); } else c.enqueue(value);
          } catch (e) { open.delete(controller); c.error(e); }
        },
        cancel(reason) { open.delete(controller); return reader.cancel(reason); },
      });
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } catch (e) {
      open.delete(controller);
      throw e;
    }
  }) as typeof fetch;

  return {
    get online() { return online; },
    unplug() {
      online = false;
      for (const c of open) c.abort(new TypeError('network error'));
      open.clear();
      window.dispatchEvent(new Event('offline'));
    },
    plugIn() {
      online = true;
      window.dispatchEvent(new Event('online'));
    },
    uninstall() {
      globalThis.fetch = realFetch;
      online = true;
      // The own property shadows jsdom's getter; removing it brings that back.
      delete (window.navigator as { onLine?: boolean }).onLine;
    },
  };
}
