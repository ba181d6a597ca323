import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { useServer, useStarted } from '../support/harness';
import { startLocalS3 } from '../support/localS3';
import { exitOf, killLeftovers, spawnMain, tempDataDir } from '../support/mainProcess';
import { ConfigError, readConfig, storageSettingsFromEnv } from '../../server/config';
import { localFileStorage, s3FileStorage, StorageUnavailableError, UPLOAD_CACHE_CONTROL, type S3Settings } from '../../server/storage';

/**
 * Uploads in an S3-compatible bucket (issue 26 "Shared storage"): a real S3 server (s3rver) on a
 * free port, servers configured through the same S3_* settings as `npm start`.
 */
const FILES = '/api/services/app/Files';
const s3 = useStarted('the local S3 server', () => startLocalS3());
const bucketSettings = (): S3Settings => {
  const settings = storageSettingsFromEnv(s3.env);
  if (settings.kind !== 's3') throw new Error('S3_* did not choose the bucket');
  return settings;
};
// Two servers on one bucket, as two processes behind a load balancer; and one on the disk, the reference.
const one = useServer(() => ({ storage: s3FileStorage(bucketSettings()), port: 0 }));
const two = useServer(() => ({ storage: s3FileStorage(bucketSettings()), port: 0 }));
let diskDir: string;
beforeAll(() => { diskDir = mkdtempSync(path.join(tmpdir(), 'storage-s3-disk-')); });
const disk = useServer(() => ({ storage: localFileStorage(diskDir), port: 0 }));
afterAll(() => { if (diskDir) rmSync(diskDir, { recursive: true, force: true }); killLeftovers(); });

const tokens = new Map<string, string>();
async function upload(server: { url: string; api: { login(u: string): Promise<string> } }, method: string, bytes: Buffer, query = '') {
  const key = `${server.url} admin`;
  if (!tokens.has(key)) tokens.set(key, await server.api.login('admin'));
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${server.url}${FILES}/${method}${query}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tokens.get(key)}` } });
  return { status: res.status, body: (await res.json()) as { result: { url: string; thumbnailUrl: string; key: string } } };
}
const photo = (seed: number) => sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 90, g: seed, b: 30 } } }).jpeg().toBuffer();

/** What an image answer says, minus what differs per request (date, request id, connection); the server's own address (in the CSP) as <self>. */
const servedHeaders = (res: Response, base: string) => Object.fromEntries([...res.headers]
  .filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name))
  .map(([name, value]) => [name, value.replaceAll(base, '<self>')]));
const fetchImage = async (base: string, url: string) => {
  const res = await fetch(`${base}${url}`);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};
const inBucket = async (key: string) => {
  try {
    return await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw err;
  }
};

describe('uploads in an S3-compatible bucket', () => {
  it('an upload lands in the bucket and is served through our URL, with the headers of the disk, by every process', async () => {
    const image = await photo(1);
    const stored = await upload(one, 'UploadCompanyLogoImage', image);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const { url, thumbnailUrl, key } = stored.body.result;
    expect(url).toBe(`/uploads/${key}`);

    // The object is in the bucket, with its type and cache policy kept beside it.
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    const objectBytes = Buffer.from(await object.Body!.transformToByteArray());
    expect(object.ContentType).toBe('image/jpeg');
    expect(object.CacheControl).toBe(UPLOAD_CACHE_CONTROL);
    expect(await inBucket(thumbnailUrl.slice('/uploads/'.length))).not.toBeNull();

    // Served by the process that stored it, and by the other one, from the bucket.
    const fromOne = await fetchImage(one.url, url);
    const fromTwo = await fetchImage(two.url, url);
    expect(fromOne.res.status).toBe(200);
    expect(fromTwo.res.status).toBe(200);
    expect(fromOne.bytes.equals(objectBytes)).toBe(true);
    expect(fromTwo.bytes.equals(objectBytes)).toBe(true);
    expect((await fetchImage(two.url, thumbnailUrl)).res.headers.get('content-type')).toBe('image/webp');

    // The same image through the disk storage: the same URL and exactly the same headers.
    const onDisk = await upload(disk, 'UploadCompanyLogoImage', image);
    expect(onDisk.body.result.url).toBe(url);
    const fromDisk = await fetchImage(disk.url, url);
    expect(fromDisk.bytes.equals(objectBytes)).toBe(true);
    expect(servedHeaders(fromOne.res, one.url)).toEqual(servedHeaders(fromDisk.res, disk.url));
    expect(servedHeaders(fromTwo.res, two.url)).toEqual(servedHeaders(fromDisk.res, disk.url));
    expect(servedHeaders(fromOne.res, one.url)).toMatchObject({
      'content-type': 'image/jpeg', 'content-length': String(objectBytes.length), 'cache-control': UPLOAD_CACHE_CONTROL, 'x-content-type-options': 'nosniff',
    });

    // A well-formed key that is in no bucket is a 404, as on the disk.
    expect((await fetch(`${two.url}/uploads/${'0'.repeat(64)}.jpg`)).status).toBe(404);
  });

  it('deleting a banner removes its objects from the bucket; no process serves it any more', async () => {
    const stored = await upload(one, 'UploadCompanyBannerImageForExistingCompany', await photo(2), '?companyId=1');
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const { url, thumbnailUrl, key } = stored.body.result;
    expect(await inBucket(key)).not.toBeNull();
    expect((await fetch(`${two.url}${url}`)).status).toBe(200);

    const del = await fetch(`${one.url}${FILES}/DeleteCompanyBannerImage?companyId=1`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.get(`${one.url} admin`)}` } });
    expect(del.status).toBe(200);
    expect(await inBucket(key)).toBeNull();
    expect(await inBucket(thumbnailUrl.slice('/uploads/'.length))).toBeNull();
    expect((await fetch(`${two.url}${url}`)).status).toBe(404);
    expect((await fetch(`${one.url}${thumbnailUrl}`)).status).toBe(404);
  });

  it('with S3_PUBLIC_URL, new URLs point at the bucket\'s public address; both forms are read back as keys', async () => {
    const storage = s3FileStorage({ ...bucketSettings(), publicUrl: 'https://cdn.example.com/brewops/' });
    const bytes = await photo(3);
    const key = `${'a'.repeat(64)}.jpg`;
    const put = await storage.put(key, bytes, 'image/jpeg');
    expect(put.url).toBe(`https://cdn.example.com/brewops/${key}`);
    expect(storage.keyOf(put.url)).toBe(key);
    expect(storage.keyOf(`/uploads/${key}`)).toBe(key);
    expect(storage.keyOf('https://elsewhere.example.com/a.jpg')).toBeNull();
    expect(storage.keyOf('/images/logo.png')).toBeNull();
    // What the public URL will answer with: the object's own type and cache policy.
    expect(await inBucket(key)).toMatchObject({ ContentType: 'image/jpeg', CacheControl: UPLOAD_CACHE_CONTROL });
    // …and our /uploads still serves it, for rows written before the setting.
    expect((await fetch(`${one.url}/uploads/${key}`)).status).toBe(200);
  });

  it('a bucket that cannot be used is a StorageUnavailableError (a 503 to a request), not a missing file', async () => {
    const wrong = s3FileStorage({ ...bucketSettings(), bucket: 'no-such-bucket' });
    await expect(wrong.check()).rejects.toThrow(StorageUnavailableError);
    await expect(wrong.get(`${'b'.repeat(64)}.jpg`)).rejects.toThrow(/no-such-bucket/);
    await expect(s3FileStorage(bucketSettings()).check()).resolves.toBeUndefined();
  });
});

describe('a bucket that does not answer', () => {
  const broken = useServer(() => ({ storage: s3FileStorage({ ...bucketSettings(), bucket: 'no-such-bucket' }), port: 0 }));

  it('an image request and an upload are a 503 in the ABP envelope, not a 500 or a false 404', async () => {
    const served = await fetch(`${broken.url}/uploads/${'c'.repeat(64)}.jpg`);
    expect(served.status).toBe(503);
    expect(await served.json()).toMatchObject({ success: false, error: { message: expect.stringContaining('file storage') } });
    const stored = await upload(broken, 'UploadProductImage', await photo(4));
    expect(stored.status).toBe(503);
    expect(stored.body).toMatchObject({ success: false, error: { message: expect.stringContaining('file storage') } });
  });
});

describe('S3 settings', () => {
  it('none set: the disk, as before', () => {
    expect(readConfig({}).storage).toEqual({ kind: 'disk' });
  });

  it('a half configuration, a bad switch or a plain-http public URL is a ConfigError naming what to fix', () => {
    expect(() => storageSettingsFromEnv({ S3_BUCKET: 'b' })).toThrow(ConfigError);
    expect(() => storageSettingsFromEnv({ S3_BUCKET: 'b' })).toThrow(/S3_BUCKET is set but S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are not/);
    expect(() => storageSettingsFromEnv({ S3_ENDPOINT: 'http://x' })).toThrow(/S3_BUCKET, S3_REGION/);
    expect(() => storageSettingsFromEnv({ ...s3.env, S3_FORCE_PATH_STYLE: 'yes please' })).toThrow(/S3_FORCE_PATH_STYLE must be true or false/);
    expect(() => storageSettingsFromEnv({ ...s3.env, S3_PUBLIC_URL: 'http://cdn.example.com' })).toThrow(/S3_PUBLIC_URL must be an https address/);
    expect(() => storageSettingsFromEnv({ ...s3.env, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT must be an http or https address/);
    expect(storageSettingsFromEnv({ ...s3.env, S3_PUBLIC_URL: 'https://cdn.example.com/' })).toMatchObject({ kind: 's3', forcePathStyle: true, publicUrl: 'https://cdn.example.com' });
  });

  it('npm start refuses at once, with the message, a bucket without the rest or a bucket it cannot reach', async () => {
    const half = spawnMain({ DATA_DIR: tempDataDir(), GATEWAY: 'off', S3_BUCKET: 'brewops-uploads' });
    expect(await exitOf(half, 60_000)).toMatchObject({ exited: true, code: 1 });
    expect(half.output()).toContain('Brew Ops cannot start: S3 storage is half configured: S3_BUCKET is set but');
    expect(half.output()).not.toContain('    at ');

    const unreachable = spawnMain({ DATA_DIR: tempDataDir(), GATEWAY: 'off', ...s3.env, S3_BUCKET: 'no-such-bucket' });
    expect(await exitOf(unreachable, 90_000)).toMatchObject({ exited: true, code: 1 });
    expect(unreachable.output()).toContain('Brew Ops cannot start: The bucket no-such-bucket at http://127.0.0.1:');
    expect(unreachable.output()).not.toContain('is ready');
    expect(unreachable.output()).not.toContain('NodeVersionSupportWarning');
  }, 200_000);
});
