import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentTypeOfKey, isStorageKey, type FileStorage } from './storage';

/** URL path under which the server itself serves the embedded storage's files (server/services/files/serve.ts). */
export const UPLOADS_PATH = '/uploads';

/**
 * The embedded default: files under `dir` (DATA_DIR/uploads), served by this server at
 * /uploads/<key>. URLs are root-relative like the seed's images, so they survive a change of host.
 */
export function localFileStorage(dir: string): FileStorage {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Not a storage key: ${key}`);
    return path.join(root, key);
  };
  let ready: Promise<unknown> | null = null;
  const urlOf = (key: string) => `${UPLOADS_PATH}/${key}`;
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await (ready ??= mkdir(root, { recursive: true }));
      // Written aside and renamed, so a reader never sees half a file; rewriting the same
      // content address is harmless and narrows the window of a concurrent delete.
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
      return { key, url: urlOf(key) };
    },
    async get(key) {
      if (!isStorageKey(key)) return null;
      const file = fileOf(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: createReadStream(file), contentType: contentTypeOfKey(key), size: info.size };
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    urlOf,
    keyOf(url) {
      if (!url.startsWith(`${UPLOADS_PATH}/`)) return null;
      const key = url.slice(UPLOADS_PATH.length + 1);
      return isStorageKey(key) ? key : null;
    },
  };
}

/** A storage in a fresh folder of the system's temp dir (made on the first upload): for servers started without one, e.g. tests. */
export const temporaryFileStorage = () => localFileStorage(path.join(tmpdir(), `brewops-uploads-${process.pid}-${randomBytes(4).toString('hex')}`));
