import sharp from 'sharp';
import { ApiError, badRequest } from '../../http/envelope';
import { CONTENT_TYPES, contentKey, variantKey, type FileStorage, type StoredExtension } from '../../storage/storage';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';

/** What an uploaded image may be (docs/decisions.md "Administration: files"). */
export const IMAGE_RULES = {
  /** Largest upload, in bytes: 5 MB. */
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 25_000_000,
  /** The list copy fits in a square of this many pixels. */
  thumbnailSize: 320,
} as const;

export const MESSAGES = {
  notAnImage: 'Only JPEG, PNG and WebP images are accepted.',
  unreadable: 'The file is not a readable JPEG, PNG or WebP image.',
  tooManyPixels: 'The image is larger than 25 megapixels.',
  tooLarge: 'The file is larger than 5 MB.',
} as const;

type ImageFormat = 'jpeg' | 'png' | 'webp';
const EXTENSION: Record<ImageFormat, StoredExtension> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** The image type by its first bytes; the file's name and declared type are never trusted. */
export function sniffImageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export interface ProcessedImage {
  original: { bytes: Buffer; ext: StoredExtension };
  thumbnail: { bytes: Buffer; ext: StoredExtension };
}

/**
 * Checks an upload and makes what is stored: the image turned upright (EXIF orientation) and
 * re-encoded in its own format without any metadata (sharp keeps none unless asked: no EXIF,
 * GPS, XMP or ICC), and a WebP list copy that fits in 320×320. Refusals are 400s.
 */
export async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw badRequest(MESSAGES.notAnImage);
  // The header alone tells the size, so an oversized image is refused before it is decoded.
  const meta = await sharp(bytes).metadata().catch(() => null);
  if (!meta || meta.format !== format || !meta.width || !meta.height) throw badRequest(MESSAGES.unreadable);
  if (meta.width * meta.height > IMAGE_RULES.maxPixels) throw badRequest(MESSAGES.tooManyPixels);

  // failOn 'error': photos with a harmless warning (stray bytes after a marker) open as they do in browsers.
  const upright = sharp(bytes, { limitInputPixels: IMAGE_RULES.maxPixels, failOn: 'error' }).rotate();
  const encoded = format === 'jpeg' ? upright.clone().jpeg({ quality: 85 })
    : format === 'png' ? upright.clone().png()
      : upright.clone().webp({ quality: 85 });
  const size = IMAGE_RULES.thumbnailSize;
  const thumbnail = upright.clone().resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 });
  try {
    const [originalBytes, thumbnailBytes] = await Promise.all([encoded.toBuffer(), thumbnail.toBuffer()]);
    return { original: { bytes: originalBytes, ext: EXTENSION[format] }, thumbnail: { bytes: thumbnailBytes, ext: 'webp' } };
  } catch (err) {
    throw badRequest(/pixel limit/i.test(String((err as Error)?.message)) ? MESSAGES.tooManyPixels : MESSAGES.unreadable);
  }
}

/** The answer of every upload call: the stored image and its list copy. */
export interface UploadedImage {
  /** Root-relative (embedded storage) or absolute URL of the stripped image; this is what a row stores. */
  url: string;
  /** The list copy (WebP, at most 320×320). */
  thumbnailUrl: string;
  /** The storage key (content address) of the image. */
  key: string;
}

/** The list copy's key is derived from the image's, so a row's URL is enough to find and remove both. */
export const thumbnailKeyOf = (key: string) => variantKey(key, 'thumb', 'webp');

/**
 * Notes an upload (again: the same bytes uploaded anew get a fresh day) for the sweep of unattached
 * uploads (./sweep.ts), before its file is written.
 */
export async function recordUpload(db: Db, key: string): Promise<void> {
  await db.insert(uploads).values({ key }).onConflictDoUpdate({ target: uploads.key, set: { uploadedAt: sql`now()` } });
}

/**
 * Stores a processed image and its list copy under their content address. The upload is noted first
 * (recordUpload), so a file is never on disk without the row by which the sweep finds it unattached.
 */
export async function storeImage(db: Db, storage: FileStorage, image: ProcessedImage): Promise<UploadedImage> {
  const key = contentKey(image.original.bytes, image.original.ext);
  const thumbKey = thumbnailKeyOf(key);
  await recordUpload(db, key);
  // The list copy first: a stored original then always has its copy.
  const thumb = await storage.put(thumbKey, image.thumbnail.bytes, CONTENT_TYPES[image.thumbnail.ext]);
  const original = await storage.put(key, image.original.bytes, CONTENT_TYPES[image.original.ext]);
  return { url: original.url, thumbnailUrl: thumb.url, key };
}

/** A 413 in the envelope, for an upload over IMAGE_RULES.maxBytes. */
export const tooLarge = () => new ApiError(413, MESSAGES.tooLarge);
