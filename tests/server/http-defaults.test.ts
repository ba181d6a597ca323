import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { buildApp } from '../../server/app';
import { httpSettingsFromEnv } from '../../server/http/security';
import { useServer } from '../support/harness';

/**
 * Secure HTTP defaults (issue 7): security headers on every answer, CORS only for configured
 * origins, cache headers of the SPA shell and its files, and a 404 for a missing file.
 * A small SPA folder stands in for dist/, so no build is needed; /graphql needs the built mesh.
 */
const hasMesh = existsSync('.mesh/index.ts');
const PARTNER = 'https://partner.example.com';
const EVIL = 'https://evil.example.net';
const OWN = 'https://shop.example.com';
const APP = '/api/services/app';
const SHELL = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const BUNDLE = `console.log(${JSON.stringify('x'.repeat(2000))});`;

let spaDir: string;
beforeAll(async () => {
  spaDir = mkdtempSync(path.join(tmpdir(), 'spa-'));
  mkdirSync(path.join(spaDir, 'assets'));
  mkdirSync(path.join(spaDir, 'sounds'));
  writeFileSync(path.join(spaDir, 'index.html'), SHELL);
  writeFileSync(path.join(spaDir, 'assets', 'index-Ab12Cd34.js'), BUNDLE);
  writeFileSync(path.join(spaDir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(BUNDLE));
  writeFileSync(path.join(spaDir, 'sounds', 'new-order.wav'), Buffer.alloc(64));
});
const server = useServer(() => ({
  // GraphiQL is off unless GRAPHIQL=on (mesh/graphiql.ts); its page is checked here, turned on.
  spaDir, gateway: hasMesh, graphiql: true, publicUrl: OWN,
  http: httpSettingsFromEnv({ CORS_ORIGINS: `${PARTNER}, https://console.example.com`, TRUST_PROXY: 'true' }),
}));
afterAll(async () => {
  if (spaDir) rmSync(spaDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

function expectSecurityHeaders(res: { headers: Record<string, unknown> }, what: string) {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toMatch(/script-src 'self'(;|$)/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
}

describe('security headers', () => {
  it('are on the shell, a client route, a file, API JSON, a 400, a 401 and 404s', async () => {
    const answers = {
      shell: await get('/'),
      clientRoute: await get('/product-detail/12'),
      asset: await get('/assets/index-Ab12Cd34.js'),
      apiJson: await get(`${APP}/Country/GetCountriesDictionary`),
      badRequest: await get(`${APP}/Country/GetDeliveryAreasTreeByBrandIdForShop?brandId=abc`),
      unauthorized: await get(`${APP}/Store/GetUserOrdersAsBranchUser`, { authorization: 'Bearer nonsense' }),
      apiNotFound: await get('/api/services/app/Nothing/Here'),
      missingAsset: await get('/assets/gone-Zz99.js'),
    };
    expect(answers.apiJson.statusCode).toBe(200);
    expect(answers.badRequest.statusCode).toBe(400);
    expect(answers.unauthorized.statusCode).toBe(401);
    expect(answers.apiNotFound.statusCode).toBe(404);
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res, what);
  });

  it('the SPA policy has no inline script or stylesheet (style attributes only) and lets the console reach its own server', async () => {
    const csp = String((await get('/')).headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources.join(' ')]));
    expect(directives['script-src']).toBe("'self'");
    expect(directives['style-src']).toBe("'self'");
    expect(directives['style-src-attr']).toBe("'unsafe-inline'");
    expect(directives['connect-src']).toBe("'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.match(/unsafe-inline/g)).toHaveLength(1);
  });

  it('the Firestore hosts join connect-src only when the web app uses Firestore', () => {
    expect(httpSettingsFromEnv({}).connectSources).toEqual([]);
    expect(httpSettingsFromEnv({ VITE_FIREBASE_PROJECT_ID: 'shop', VITE_FIRESTORE_EMULATOR_HOST: '127.0.0.1:8085' }).connectSources)
      .toEqual(['https://firestore.googleapis.com', 'http://127.0.0.1:8085']);
  });

  it('CORS_ORIGINS takes exact origins only, never a wildcard', () => {
    expect(() => httpSettingsFromEnv({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => httpSettingsFromEnv({ CORS_ORIGINS: 'https://a.example.com/shop' })).toThrow(/CORS_ORIGINS/);
    expect(httpSettingsFromEnv({ CORS_ORIGINS: 'https://a.example.com/' }).corsOrigins).toEqual(['https://a.example.com']);
  });

  it('the sandbox payment page allows only its own inline stylesheet, by hash', async () => {
    const res = await get('/payments/sandbox/sbx_no_such_payment');
    expect(res.statusCode).toBe(404);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)![1];
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("default-src 'none'");
    expect(res.body).not.toContain('<script');
  });

  it.skipIf(!hasMesh)('GraphiQL at GET /graphql works offline: every script and style sheet from our origin, no inline script, no CDN in its policy', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    const origin = new URL(server.url).origin;
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      expect(src, 'an inline script').toBeTruthy();
      expect(inline.trim()).toBe('');
      expect(new URL(src!, server.url).origin).toBe(origin);
      const script = await fetch(new URL(src!, server.url));
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      // The bundle asks for Monaco's workers by these same-origin URLs.
      expect(await script.text()).toContain('/graphql/graphiql');
    }
    const sheets = [...page.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/gi)].map((m) => m[1]);
    expect(sheets.length).toBeGreaterThan(0);
    for (const href of sheets) {
      expect(new URL(href, server.url).origin).toBe(origin);
      expect((await fetch(new URL(href, server.url))).status).toBe(200);
    }
    expect(page).not.toMatch(/unpkg|cdn\./i);
    for (const label of ['editorWorkerService', 'json', 'graphql']) {
      expect((await fetch(`${server.url}/graphql/graphiql/worker-${label}.js`)).status).toBe(200);
    }
    expect((await fetch(`${server.url}/graphql/graphiql/worker-constructor.js`)).status).toBe(404);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unpkg');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('HSTS', () => {
  it('is sent when a trusted proxy says the request came over HTTPS, not otherwise', async () => {
    const overHttps = await get('/', { 'x-forwarded-proto': 'https' });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000');
    const api = await get(`${APP}/Country/GetCountriesDictionary`, { 'x-forwarded-proto': 'https' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await get('/')).headers['strict-transport-security']).toBeUndefined();
    expect((await get('/', { 'x-forwarded-proto': 'http' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    const { app } = await buildApp({ db: server.database.db, jwtSecret: 'test-secret-0123456789abcdef', config: { http: httpSettingsFromEnv({}) } });
    try {
      const res = await app.inject({ method: 'GET', url: `${APP}/Country/GetCountriesDictionary`, headers: { 'x-forwarded-proto': 'https' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expectSecurityHeaders(res, 'untrusted proxy');
    } finally {
      await app.close();
    }
  });
});

describe('CORS on /api and /graphql', () => {
  const url = `${APP}/Country/GetCountriesDictionary`;

  it('answers a configured origin with that origin, without credentials', async () => {
    const res = await get(url, { origin: PARTNER });
    expect(res.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers.vary)).toContain('Origin');
  });

  it('the app\'s own origin (PUBLIC_URL) is allowed too', async () => {
    expect((await get(url, { origin: OWN })).headers['access-control-allow-origin']).toBe(OWN);
  });

  it('gives any other origin no CORS headers', async () => {
    const res = await get(url, { origin: EVIL });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a preflight of a configured origin with the methods and headers the API takes', async () => {
    const res = await server.app.inject({
      method: 'OPTIONS', url: `${APP}/Store/SaveNewOrderVS1`,
      headers: { origin: PARTNER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const h of ['authorization', 'content-type', 'idempotency-key']) expect(allowed).toContain(h);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a preflight of another origin without CORS headers', async () => {
    const res = await server.app.inject({
      method: 'OPTIONS', url: `${APP}/Store/SaveNewOrderVS1`,
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
  });

  it.skipIf(!hasMesh)('the gateway no longer echoes any origin with credentials', async () => {
    const query = JSON.stringify({ query: '{ __typename }' });
    const evil = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { origin: EVIL, 'content-type': 'application/json' }, body: query });
    expect(evil.status).toBe(200);
    expect(await evil.json()).toEqual({ data: { __typename: 'Query' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const partner = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { origin: PARTNER, 'content-type': 'application/json' }, body: query });
    await partner.text();
    expect(partner.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(partner.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await fetch(`${server.url}/graphql`, {
      method: 'OPTIONS', headers: { origin: PARTNER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PARTNER);
  });
});

describe('CORS of the standalone gateway (npm run gateway)', () => {
  it.skipIf(!hasMesh)('allows only configured origins, without credentials', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => probe.once('listening', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const child = spawn(process.execPath, ['--import', 'tsx', 'mesh/standalone.ts'], {
      env: { ...process.env, GATEWAY_PORT: String(port), PUBLIC_URL: OWN, CORS_ORIGINS: PARTNER, MESH_UPSTREAM_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const started = Date.now();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the gateway did not start in 60 s')), 60_000);
        child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
        child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('GraphQL gateway on')) { clearTimeout(timer); resolve(); } });
      });
      console.log(`standalone gateway ready in ${Date.now() - started} ms`);
      const call = (origin: string) => fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }),
      });
      const evil = await call(EVIL);
      expect(await evil.json()).toEqual({ data: { __typename: 'Query' } });
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
      for (const origin of [PARTNER, OWN]) {
        const res = await call(origin);
        await res.text();
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);
});

describe('SPA caching and missing files', () => {
  it('the shell is no-cache, for / and for client routes', async () => {
    for (const url of ['/', '/product-detail/12', '/brands/edit/3', '/track-order?orderId=1&ohash=x']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('hashed assets are immutable for a year, precompressed twins too, with Vary: Accept-Encoding', async () => {
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(plain.headers.vary)).toContain('Accept-Encoding');
    const br = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toContain('Accept-Encoding');
  });

  it('other public files get a modest max-age', async () => {
    const res = await get('/sounds/new-order.wav');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('a missing file is a 404, not the shell', async () => {
    for (const url of ['/assets/gone-Zz99.js', '/assets/gone', '/images/products/nothing.png', '/favicon.ico']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<div id="root">');
    }
  });

  it('a brand name with a dot in /brands/qrscans/{brandId}/{brandName} is still a client route', async () => {
    const res = await get('/brands/qrscans/7/Mango.Co');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SHELL);
  });
});
