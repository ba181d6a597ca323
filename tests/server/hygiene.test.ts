import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { brands, uploads } from '../../server/db/schema';
import { localFileStorage } from '../../server/storage';
import { sweepUploads, UPLOAD_GRACE_MS } from '../../server/services/files/sweep';
import { useServer } from '../support/harness';

/**
 * Issue 20 "Hygiene": API answers are never cached, /metrics without METRICS_TOKEN is a 404 even
 * with the SPA served, GraphiQL is off unless GRAPHIQL=on, and uploads never attached to a record
 * are removed after a day. A small SPA folder stands in for dist/; /graphql needs the built mesh.
 */
const hasMesh = existsSync('.mesh/index.ts');
const APP = '/api/services/app';
const SHELL = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';

let spaDir: string;
let uploadsDir: string;
const storage = () => localFileStorage(uploadsDir);
beforeAll(async () => {
  spaDir = mkdtempSync(path.join(tmpdir(), 'hygiene-spa-'));
  mkdirSync(path.join(spaDir, 'assets'));
  writeFileSync(path.join(spaDir, 'index.html'), SHELL);
  writeFileSync(path.join(spaDir, 'assets', 'index-Ab12Cd34.js'), 'console.log(1);');
  uploadsDir = mkdtempSync(path.join(tmpdir(), 'hygiene-uploads-'));
}, 180_000);
const server = useServer(() => ({ spaDir, gateway: hasMesh, storage: storage() }));
afterAll(async () => {
  for (const dir of [spaDir, uploadsDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

describe('Cache-Control of API answers', () => {
  it('is no-store on every REST answer: success, 400, 401, 403, 404 and the OpenAPI document', async () => {
    const admin = await server.api.login('admin');
    const customer = await server.api.login('customer');
    const answers = {
      ok: await get(`${APP}/Brand/GetBrandsForMangoCustomer`),
      profile: await get(`${APP}/User/Get?Id=1`, { authorization: `Bearer ${admin}` }),
      badRequest: await get(`${APP}/User/Get?Id=abc`, { authorization: `Bearer ${admin}` }),
      unauthorized: await get(`${APP}/User/Get?Id=1`),
      forbidden: await get(`${APP}/User/Get?Id=1`, { authorization: `Bearer ${customer}` }),
      notFound: await get(`${APP}/NoSuchService/NoSuchCall`),
      post: await server.app.inject({ method: 'POST', url: '/api/TokenAuth/Authenticate', payload: { userNameOrEmailAddress: 'admin', password: 'wrong' } }),
      openapi: await get('/api/openapi.json'),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.statusCode]));
    expect(statuses).toMatchObject({ ok: 200, profile: 200, badRequest: 400, unauthorized: 401, forbidden: 403, notFound: 404, openapi: 200 });
    expect(statuses.post).toBeGreaterThanOrEqual(400);
    for (const [what, res] of Object.entries(answers)) expect(res.headers['cache-control'], what).toBe('no-store');
  });

  it.skipIf(!hasMesh)('is no-store on the gateway answers, good and bad', async () => {
    const good = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(good.status).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    const bad = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ nothing' }) });
    expect(bad.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the pages, the hashed files and the uploads their own caching', async () => {
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/orders')).headers['cache-control']).toBe('no-cache');
    expect((await get('/assets/index-Ab12Cd34.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const admin = await server.api.login('admin');
    const { url } = await uploadImage(admin, 250);
    expect((await get(url)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('is a 404 in the envelope, not the app page, though the SPA is served', async () => {
    for (const url of ['/metrics', '/metrics?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
      expect(res.json(), url).toMatchObject({ success: false });
    }
    // Client-side routes still get the shell.
    expect((await get('/orders')).statusCode).toBe(200);
  });
});

describe.skipIf(!hasMesh)('GraphiQL by default', () => {
  it('is not served to a browser, nor its files; queries still work', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
    expect(await page.text()).not.toMatch(/graphiql/i);
    for (const file of ['graphiql.js', 'graphiql.css', 'worker-graphql.js']) {
      const res = await fetch(`${server.url}/graphql/graphiql/${file}`);
      expect(res.status, file).toBe(404);
      await res.arrayBuffer();
    }
    const query = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(query.status).toBe(200);
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
    const viaGet = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'application/json' } });
    expect(await viaGet.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

/** A small PNG of its own colour (so its own content address), uploaded as the console does. */
async function uploadImage(token: string, shade: number): Promise<{ url: string; thumbnailUrl: string; key: string }> {
  const bytes = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: shade, g: 40, b: 90 } } }).png().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
  const res = await fetch(`${server.url}${APP}/Files/UploadProductImage`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = await res.json() as { result: { url: string; thumbnailUrl: string; key: string } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.result;
}

describe('the sweep of unattached uploads', () => {
  const stored = () => readdirSync(uploadsDir);
  const thumbOf = (key: string) => `${key.slice(0, 64)}.thumb.webp`;
  /** The fake clock: an upload made `ms` ago. */
  const age = (key: string, ms: number) => server.database.db.update(uploads)
    .set({ uploadedAt: sql`now() - make_interval(secs => ${ms / 1000})` }).where(eq(uploads.key, key));

  it('removes an upload a day old that no record refers to; keeps a fresh one and an old attached one', async () => {
    const admin = await server.api.login('admin');
    const [unattached, fresh, attached, almost] = [await uploadImage(admin, 1), await uploadImage(admin, 2), await uploadImage(admin, 3), await uploadImage(admin, 4)];
    const day = UPLOAD_GRACE_MS;
    await age(unattached.key, day + 60_000);
    await age(attached.key, 3 * day);
    await age(almost.key, day - 60_000);
    // Saved into a record (brand 7's logo) within its day, by URL as the edit form sends it.
    const [brand] = await server.database.db.select({ logoUrl: brands.logoUrl }).from(brands).where(eq(brands.id, 7));
    await server.database.db.update(brands).set({ logoUrl: attached.url }).where(eq(brands.id, 7));
    try {
      for (const u of [unattached, fresh, attached, almost]) expect(stored()).toEqual(expect.arrayContaining([u.key, thumbOf(u.key)]));

      expect(await sweepUploads(server.database.db, storage())).toEqual([unattached.key]);

      expect(stored()).not.toContain(unattached.key);
      expect(stored()).not.toContain(thumbOf(unattached.key));
      expect((await get(unattached.url)).statusCode).toBe(404);
      for (const u of [fresh, attached, almost]) {
        expect(stored()).toEqual(expect.arrayContaining([u.key, thumbOf(u.key)]));
        expect((await get(u.url)).statusCode).toBe(200);
      }
      // The attached upload's row is done with; the fresh ones wait for their day.
      const rows = (await server.database.db.select({ key: uploads.key }).from(uploads)).map((r) => r.key);
      expect(rows).toEqual(expect.arrayContaining([fresh.key, almost.key]));
      expect(rows).not.toContain(unattached.key);
      expect(rows).not.toContain(attached.key);

      // A day later by the clock the one saved nowhere goes too; the attached one never.
      expect(await sweepUploads(server.database.db, storage(), new Date(Date.now() + 2 * 60_000))).toEqual([almost.key]);
      expect(stored()).toEqual(expect.arrayContaining([attached.key, fresh.key]));
    } finally {
      await server.database.db.update(brands).set({ logoUrl: brand.logoUrl }).where(eq(brands.id, 7));
    }
  });

  it('gives the same bytes uploaded again a fresh day', async () => {
    const admin = await server.api.login('admin');
    const first = await uploadImage(admin, 5);
    await age(first.key, UPLOAD_GRACE_MS + 60_000);
    const again = await uploadImage(admin, 5);
    expect(again.key).toBe(first.key);
    expect(await sweepUploads(server.database.db, storage())).toEqual([]);
    expect((await get(first.url)).statusCode).toBe(200);
  });

  it('with several processes sweeping at once, each upload is judged once and nothing fails', async () => {
    const admin = await server.api.login('admin');
    const old = [await uploadImage(admin, 6), await uploadImage(admin, 7), await uploadImage(admin, 8), await uploadImage(admin, 9)];
    for (const u of old) await age(u.key, UPLOAD_GRACE_MS + 60_000);
    const rounds = await Promise.all([1, 2, 3].map(() => sweepUploads(server.database.db, storage())));
    const removed = rounds.flat();
    expect(removed.sort()).toEqual(old.map((u) => u.key).sort());
    for (const u of old) expect(stored()).not.toContain(u.key);
  });
});
