import type { IncomingHttpHeaders } from 'node:http';
import { listenLocal } from './fakeHttp';

/**
 * A push service (RFC 8030) standing in for FCM, Mozilla's autopush and Apple's: it answers by the
 * endpoint's first path segment, as a real one answers a subscription in that state, and keeps
 * every request's headers (TTL, Urgency, Topic). /ok 201; /flaky 429 with Retry-After: 1 once,
 * then 201; /broken 500; /bad 400; /forbidden 403; /toolarge 413; /missing 404; /gone 410.
 */
export async function fakePushService() {
  const received: { path: string; headers: IncomingHttpHeaders; at: number; bytes: number }[] = [];
  const flaky = new Set<string>();
  const STATUS: Record<string, number> = { ok: 201, broken: 500, bad: 400, forbidden: 403, toolarge: 413, missing: 404, gone: 410 };
  const server = await listenLocal((req, res, url) => {
    received.push({ path: url.pathname, headers: req.headers, at: Date.now(), bytes: req.rawBody.length });
    const kind = url.pathname.split('/')[1];
    if (kind === 'flaky') {
      if (!flaky.has(url.pathname)) {
        flaky.add(url.pathname);
        res.writeHead(429, { 'retry-after': '1' }).end();
        return;
      }
      res.writeHead(201).end();
      return;
    }
    res.writeHead(STATUS[kind] ?? 404).end();
  });
  return { ...server, received, to: (path: string) => received.filter((r) => r.path === path) };
}
