import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { Envelope } from '../support/restHelpers';
import { useServer } from '../support/harness';
import { brands, companies, products } from '../../server/db/schema';
import { localFileStorage } from '../../server/storage';
import { MESSAGES } from '../../server/services/files/images';

const FILES = '/api/services/app/Files';
const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'none';
const token: Record<Who, string | undefined> = {} as never;

let uploadsDir: string;

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(tmpdir(), 'files-test-'));
}, 120_000);
const server = useServer(() => ({ storage: localFileStorage(uploadsDir) }));
beforeAll(async () => {
  for (const u of USERS) token[u] = await server.api.login(u);
  token.none = undefined;
}, 120_000);
afterAll(async () => {
  if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
});

/** The stored files, by name: what the tests check for "nothing written" and "the file is gone". */
const storedFiles = () => readdirSync(uploadsDir).sort();

/** Posts a file as the console does: multipart/form-data over real HTTP, field `file`, bearer token. */
async function upload(method: string, who: Who, bytes: Buffer, filename: string, type: string, query = '') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return send(`${FILES}/${method}${query}`, { method: 'POST', body: form, who });
}

async function send(url: string, init: { method: string; who: Who; body?: BodyInit; headers?: Record<string, string> }) {
  const headers: Record<string, string> = { ...init.headers };
  if (token[init.who]) headers.authorization = `Bearer ${token[init.who]}`;
  const res = await fetch(`${server.url}${url}`, { method: init.method, body: init.body, headers });
  const text = await res.text();
  let body: Envelope;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`${init.method} ${url}: ${res.status} answered something that is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body };
}

const fetchStored = async (url: string) => {
  const res = await fetch(`${server.url}${url}`);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** A photo as a phone makes it: landscape pixels, EXIF saying "rotate 90°" and a copyright field. */
const photoWithExif = (seed = 0) =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 200, g: 120 + seed, b: 40 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'x', Artist: 'Someone' } } })
    .toBuffer();

const png = (width = 64, height = 48) => sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } } }).png().toBuffer();

describe('uploads: what is stored', () => {
  it('strips EXIF, turns the photo upright and stores a smaller WebP list copy, content-addressed', async () => {
    const input = await photoWithExif();
    const before = await sharp(input).metadata();
    expect(before.exif, 'the test photo carries EXIF').toBeDefined();
    expect(before.orientation).toBe(6);

    const res = await upload('UploadCompanyLogoImage', 'admin', input, 'logo.jpg', 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { url, thumbnailUrl, key } = res.body.result as { url: string; thumbnailUrl: string; key: string };
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{64}\.jpg$/);
    expect(url).toBe(`/uploads/${key}`);
    expect(thumbnailUrl).toBe(`/uploads/${key.slice(0, 64)}.thumb.webp`);

    const original = await fetchStored(url);
    expect(original.res.status).toBe(200);
    expect(original.res.headers.get('content-type')).toBe('image/jpeg');
    expect(original.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(original.res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(createHash('sha256').update(original.bytes).digest('hex'), 'the key is the content address').toBe(key.slice(0, 64));
    const stored = await sharp(original.bytes).metadata();
    expect(stored.exif, 'EXIF is gone').toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect(original.bytes.includes(Buffer.from('Someone')), 'no trace of the EXIF text').toBe(false);
    expect([stored.width, stored.height], 'turned upright by its orientation').toEqual([200, 400]);

    const thumb = await fetchStored(thumbnailUrl);
    expect(thumb.res.status).toBe(200);
    expect(thumb.res.headers.get('content-type')).toBe('image/webp');
    expect(thumb.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const thumbMeta = await sharp(thumb.bytes).metadata();
    expect(thumbMeta.format).toBe('webp');
    expect(Math.max(thumbMeta.width!, thumbMeta.height!)).toBeLessThanOrEqual(320);
    expect(thumbMeta.height! > thumbMeta.width!, 'the list copy is upright too').toBe(true);
    expect(thumb.bytes.length).toBeLessThan(original.bytes.length);

    // The same image again is the same file.
    const files = storedFiles();
    const again = await upload('UploadBrandLogoImage', 'admin', input, 'other-name.jpg', 'image/jpeg');
    expect(again.status).toBe(200);
    expect(again.body.result.url).toBe(url);
    expect(storedFiles()).toEqual(files);
  });

  it('judges the type by the bytes: a PNG named .jpg is stored as a PNG', async () => {
    const res = await upload('UploadProductImage', 'brandmanager', await png(), 'photo.jpg', 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.url).toMatch(/\.png$/);
    const stored = await fetchStored(res.body.result.url);
    expect(stored.res.headers.get('content-type')).toBe('image/png');
    expect((await sharp(stored.bytes).metadata()).hasAlpha, 'transparency is kept').toBe(true);
  });

  it('accepts WebP', async () => {
    const webp = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#335577' } }).webp().toBuffer();
    const res = await upload('UploadBrandAdvertisementImage', 'companyadmin', webp, 'ad.bin', 'application/octet-stream');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.url).toMatch(/\.webp$/);
  });

  it('measures a typical 2 MB phone photo', async () => {
    // Noise compresses like a detailed photo: about 2.2 MB at 2200×1650.
    const noise = await sharp({ create: { width: 2200, height: 1650, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 36 } } })
      .jpeg({ quality: 90 }).withMetadata({ exif: { IFD0: { Copyright: 'x' } } }).toBuffer();
    const started = performance.now();
    const res = await upload('UploadProductImage', 'admin', noise, 'big.jpg', 'image/jpeg');
    const ms = performance.now() - started;
    console.log(`[files] upload of a ${(noise.length / 1024 / 1024).toFixed(2)} MB 2200×1650 JPEG (read, strip, re-encode, list copy, store): ${ms.toFixed(0)} ms`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }, 120_000);
});

describe('uploads: refusals write nothing', () => {
  const refused = async (res: { status: number; body: Envelope }, status: number, message: string, filesBefore: string[]) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.error?.message).toBe(message);
    expect(storedFiles()).toEqual(filesBefore);
  };

  it('a text file named .png is a 400', async () => {
    const files = storedFiles();
    const res = await upload('UploadBranchLogoImage', 'admin', Buffer.from('hello, I am not an image\n'), 'logo.png', 'image/png');
    await refused(res, 400, MESSAGES.notAnImage, files);
  });

  it('a file that starts like a JPEG but is not one is a 400', async () => {
    const files = storedFiles();
    const res = await upload('UploadBranchLogoImage', 'admin', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), 'x.jpg', 'image/jpeg');
    await refused(res, 400, MESSAGES.unreadable, files);
  });

  it('over 5 MB is a 413 in the envelope', async () => {
    const files = storedFiles();
    const big = Buffer.concat([await photoWithExif(), Buffer.alloc(6 * 1024 * 1024, 0xab)]);
    const res = await upload('UploadCompanyBannerImage', 'admin', big, 'big.jpg', 'image/jpeg');
    await refused(res, 413, MESSAGES.tooLarge, files);
  });

  it('over 25 megapixels is a 400, even when the file is small', async () => {
    const huge = await sharp({ create: { width: 6000, height: 4400, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(IMAGE_MAX_BYTES);
    const files = storedFiles();
    const res = await upload('UploadProductImage', 'admin', huge, 'huge.png', 'image/png');
    await refused(res, 400, MESSAGES.tooManyPixels, files);
  }, 120_000);

  it('a body that is not multipart, or a broken multipart body, is a 400 (413 past the general body limit)', async () => {
    const files = storedFiles();
    const json = await send(`${FILES}/UploadProductImage`, { method: 'POST', who: 'admin', body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body.success).toBe(false);
    // A large body that is not multipart meets the server's general body limit, still in the envelope.
    const bigJson = await send(`${FILES}/UploadProductImage`, { method: 'POST', who: 'admin', body: JSON.stringify({ file: 'x'.repeat(6 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(bigJson.status).toBe(413);
    expect(bigJson.body.success).toBe(false);
    const broken = await send(`${FILES}/UploadProductImage`, {
      method: 'POST', who: 'admin', body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8\xff',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status, JSON.stringify(broken.body)).toBe(400);
    const noBoundary = await send(`${FILES}/UploadProductImage`, { method: 'POST', who: 'admin', body: 'abc', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.status, JSON.stringify(noBoundary.body)).toBe(400);
    const noFile = new FormData();
    noFile.append('name', 'just a field');
    const empty = await send(`${FILES}/UploadProductImage`, { method: 'POST', who: 'admin', body: noFile });
    expect(empty.status, JSON.stringify(empty.body)).toBe(400);
    expect(storedFiles()).toEqual(files);
  });

  it('who may upload: 401 without a token, 403 without the capability, before the body is read', async () => {
    const files = storedFiles();
    const image = await png();
    expect((await upload('UploadProductImage', 'none', image, 'a.png', 'image/png')).status).toBe(401);
    expect((await upload('UploadProductImage', 'customer', image, 'a.png', 'image/png')).status).toBe(403);
    expect((await upload('UploadCompanyLogoImage', 'brandmanager', image, 'a.png', 'image/png')).status).toBe(403);
    expect((await upload('UploadBrandBannerImage', 'brandmanager', image, 'a.png', 'image/png')).status).toBe(403);
    expect((await upload('UploadBranchLogoImage', 'branchuser', image, 'a.png', 'image/png')).status).toBe(403);
    // A 401 comes before any complaint about the body, even an oversized one.
    const big = await upload('UploadProductImage', 'none', Buffer.alloc(6 * 1024 * 1024, 1), 'big.jpg', 'image/jpeg');
    expect(big.status).toBe(401);
    expect(storedFiles()).toEqual(files);
  });
});

const bannerOf = async (table: typeof companies | typeof brands, id: number) =>
  (await server.database.db.select({ bannerUrl: table.bannerUrl }).from(table).where(eq(table.id, id)))[0]?.bannerUrl ?? null;

describe('banners of existing companies and brands', () => {
  it("a company admin cannot set another company's banner: 404, nothing written, no file left", async () => {
    const files = storedFiles();
    const before = await bannerOf(companies, 2);
    const res = await upload('UploadCompanyBannerImageForExistingCompany', 'companyadmin', await photoWithExif(1), 'b.jpg', 'image/jpeg', '?companyId=2');
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await bannerOf(companies, 2)).toBe(before);
    expect(storedFiles()).toEqual(files);
    // nor a brand of another company, nor delete either banner
    expect((await upload('UploadBrandBannerImageForExistingBrand', 'companyadmin', await photoWithExif(1), 'b.jpg', 'image/jpeg', '?brandId=8')).status).toBe(404);
    expect((await send(`${FILES}/DeleteCompanyBannerImage?companyId=2`, { method: 'DELETE', who: 'companyadmin' })).status).toBe(404);
    expect((await send(`${FILES}/DeleteBrandBannerImage?brandId=8`, { method: 'DELETE', who: 'companyadmin' })).status).toBe(404);
    expect((await send(`${FILES}/DeleteBrandBannerImage?brandId=7`, { method: 'DELETE', who: 'brandmanager' })).status).toBe(403);
    expect(storedFiles()).toEqual(files);
    // an id that is not a number is a 400
    expect((await send(`${FILES}/DeleteCompanyBannerImage?companyId=abc`, { method: 'DELETE', who: 'admin' })).status).toBe(400);
  });

  it('sets the banner of their own company, replaces it, and deleting it deletes the file', async () => {
    const first = await upload('UploadCompanyBannerImageForExistingCompany', 'companyadmin', await photoWithExif(2), 'b.jpg', 'image/jpeg', '?companyId=1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const firstUrl = first.body.result.url as string;
    expect(await bannerOf(companies, 1)).toBe(firstUrl);
    const firstFiles = [first.body.result.key, `${(first.body.result.key as string).slice(0, 64)}.thumb.webp`];
    expect(storedFiles()).toEqual(expect.arrayContaining(firstFiles));

    // A new banner replaces the old one, whose files go with it.
    const second = await upload('UploadCompanyBannerImageForExistingCompany', 'companyadmin', await photoWithExif(3), 'c.jpg', 'image/jpeg', '?companyId=1');
    expect(second.status).toBe(200);
    expect(await bannerOf(companies, 1)).toBe(second.body.result.url);
    for (const f of firstFiles) expect(storedFiles()).not.toContain(f);

    const del = await send(`${FILES}/DeleteCompanyBannerImage?companyId=1`, { method: 'DELETE', who: 'companyadmin' });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.result).toBe(true);
    expect(await bannerOf(companies, 1)).toBeNull();
    expect(storedFiles()).not.toContain(second.body.result.key);
    expect((await fetchStored(second.body.result.url)).res.status).toBe(404);
    expect((await fetchStored(second.body.result.thumbnailUrl)).res.status).toBe(404);
    // Deleting again changes nothing.
    expect((await send(`${FILES}/DeleteCompanyBannerImage?companyId=1`, { method: 'DELETE', who: 'companyadmin' })).status).toBe(200);
  });

  it("deleting a brand's banner keeps the file while another row still shows the same image", async () => {
    const image = await photoWithExif(4);
    const res = await upload('UploadBrandBannerImageForExistingBrand', 'companyadmin', image, 'b.jpg', 'image/jpeg', '?brandId=7');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { url, key } = res.body.result as { url: string; key: string };
    expect(await bannerOf(brands, 7)).toBe(url);
    // The same picture is also a product's image (content-addressed: one file).
    const [product] = await server.database.db.select({ id: products.id, image: products.productImage }).from(products).where(eq(products.brandId, 7)).limit(1);
    await server.database.db.update(products).set({ productImage: url }).where(eq(products.id, product.id));

    expect((await send(`${FILES}/DeleteBrandBannerImage?brandId=7`, { method: 'DELETE', who: 'admin' })).status).toBe(200);
    expect(await bannerOf(brands, 7)).toBeNull();
    expect(storedFiles(), 'still used by the product').toContain(key);
    expect((await fetchStored(url)).res.status).toBe(200);
    await server.database.db.update(products).set({ productImage: product.image }).where(eq(products.id, product.id));
  });
});

describe('serving /uploads', () => {
  it('answers 404 for unknown keys and for anything that is not a key', async () => {
    for (const p of [
      `/uploads/${'0'.repeat(64)}.jpg`,
      '/uploads/..%2F..%2Fpackage.json',
      '/uploads/%2e%2e',
      `/uploads/${'a'.repeat(64)}.svg`,
      '/uploads/x',
    ]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
      await res.arrayBuffer();
    }
  });
});

describe('the gateway', () => {
  it('does not see the Files service: uploads go straight to REST (docs/decisions.md)', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    expect(Object.keys(doc.paths).filter((p) => p.includes('/Files/') || p.startsWith('/uploads'))).toEqual([]);
  });
});

const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
