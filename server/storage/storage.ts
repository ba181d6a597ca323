import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** A stored file as it is served: its bytes as a stream, their type and length. */
export interface StoredFile {
  body: Readable;
  contentType: string;
  size: number;
}

/**
 * Where uploaded files live (ARCHITECTURE.md "uploaded images"). Keys are content addresses
 * (`contentKey`), so the same bytes are one file and a stored file never changes under its key:
 * an adapter only keeps bytes under a key and says which URL serves them. Rows of the database
 * hold the URL; `keyOf` reads the key back from a URL this storage made, and answers null for
 * any other URL (the seed's bundled images, an outside link), which is then never touched.
 */
export interface FileStorage {
  /** Stores the bytes under the key (again, harmlessly, when they are already there). */
  put(key: string, bytes: Buffer, contentType: string): Promise<{ key: string; url: string }>;
  /** The file under the key, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file under the key; a missing file is not an error. */
  delete(key: string): Promise<void>;
  urlOf(key: string): string;
  keyOf(url: string): string | null;
}

/** A stored file never changes under its content address, so browsers and proxies may keep it for good (served so by /uploads and by a bucket's public URL). */
export const UPLOAD_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The file types the storage keeps, by extension. */
export const CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
export type StoredExtension = keyof typeof CONTENT_TYPES;

/**
 * A key is the sha256 of the stored bytes and their extension, optionally with a variant
 * (`<hash>.thumb.webp` is the list copy of `<hash>.jpg`). Nothing else is a key, so a request
 * path can never name a file outside the storage.
 */
export const KEY_PATTERN = /^[0-9a-f]{64}(?:\.[a-z]+)?\.(?:jpg|png|webp)$/;
export const isStorageKey = (key: string) => KEY_PATTERN.test(key);

export const contentKey = (bytes: Buffer, ext: StoredExtension) => `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;

/** The key of a variant of a stored file, derived from the file's own key: `<hash>.<variant>.<ext>`. */
export const variantKey = (key: string, variant: string, ext: StoredExtension) => `${key.slice(0, 64)}.${variant}.${ext}`;

export const contentTypeOfKey = (key: string): string => CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1) as StoredExtension] ?? 'application/octet-stream';
