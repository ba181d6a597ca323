import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { contentTypeOfKey, isStorageKey, UPLOAD_CACHE_CONTROL, type FileStorage } from './storage';
import { UPLOADS_PATH } from './localFiles';

/** Where an S3-compatible bucket is and how to reach it (server/config.ts `storageSettingsFromEnv`, S3_*). */
export interface S3Settings {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Unset: AWS's own endpoint for the region. Set for R2, MinIO, s3rver… */
  endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Set (https): new uploads' URLs point at the bucket's public address, not at our /uploads. */
  publicUrl?: string;
}

/** Raised when the bucket cannot be reached or read; the caller turns it into a 503, or a refused start. */
export class StorageUnavailableError extends Error {}

/**
 * Uploads in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), so every process serves
 * what any process stored. Keys are the content addresses, as on disk. URLs stay ours
 * (`/uploads/<key>`, read from the bucket) unless `publicUrl` is set; `keyOf` reads both forms,
 * so rows written before a change of setting are still served and released.
 */
export function s3FileStorage(settings: S3Settings): FileStorage & { check(): Promise<void> } {
  // The SDK warns at every client's creation that its releases after January 2027 need Node 22;
  // this pinned release runs on our Node 20, and an operator cannot act on it. Its documented
  // switch (@aws-sdk/core emitWarningIfUnsupportedVersion), unless set otherwise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  const Bucket = settings.bucket;
  const publicBase = settings.publicUrl?.replace(/\/+$/, '');
  const unavailable = (err: unknown) =>
    new StorageUnavailableError(`The bucket ${Bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''} cannot be used: ${(err as Error).name}: ${(err as Error).message}`, { cause: err });
  const urlOf = (key: string) => publicBase ? `${publicBase}/${key}` : `${UPLOADS_PATH}/${key}`;
  return {
    async put(key, bytes, contentType) {
      if (!isStorageKey(key)) throw new Error(`Not a storage key: ${key}`);
      try {
        // Kept with the object, so a bucket serving its public URL answers as our /uploads does.
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, CacheControl: UPLOAD_CACHE_CONTROL }));
      } catch (err) {
        throw unavailable(err);
      }
      return { key, url: urlOf(key) };
    },
    async get(key) {
      if (!isStorageKey(key)) return null;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) return null;
        return { body: res.Body as Readable, contentType: contentTypeOfKey(key), size: Number(res.ContentLength ?? 0) };
      } catch (err) {
        // Only a missing key is "no file"; a missing bucket (also a 404) is a setting to fix. On AWS the policy must
        // grant s3:ListBucket, or a missing key answers 403 (then a 503 here).
        if (err instanceof S3ServiceException && err.name === 'NoSuchKey') return null;
        throw unavailable(err);
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) throw new Error(`Not a storage key: ${key}`);
      // S3 answers a delete of a missing key with success, as the port asks.
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        throw unavailable(err);
      }
    },
    urlOf,
    keyOf(url) {
      const prefix = [`${UPLOADS_PATH}/`, ...(publicBase ? [`${publicBase}/`] : [])].find((p) => url.startsWith(p));
      const key = prefix ? url.slice(prefix.length) : '';
      return isStorageKey(key) ? key : null;
    },
    /** At start-up: the bucket exists and these keys reach it (a wrong setting is a refused start, not a failed upload later). */
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        throw unavailable(err);
      }
    },
  };
}
