import { asc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import type { FileStorage } from '../../storage/storage';
import { thumbnailKeyOf } from './images';
import { isReferenced } from './references';
import { startJobRunner } from '../../jobs/runner';

/** How long an upload may wait to be saved into a record (a create or edit form) before the sweep may remove it. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60_000;
/** How often each server process looks for unattached uploads. */
export const UPLOAD_SWEEP_MS = 60 * 60_000;

/**
 * Removes the uploads older than `graceMs` (at `now`) that no row of IMAGE_COLUMNS refers to: the
 * image and its list copy. Every upload has a row in `uploads` (recordUpload, written before the
 * file); the sweep takes the rows past their day, one at a time, in a transaction that holds the
 * row (FOR UPDATE SKIP LOCKED): with several processes each row is judged by one of them, and a new
 * upload of the same bytes waits for that judgement, then notes itself afresh and writes its file
 * again. An upload attached to a record leaves `uploads` with its file kept; from then on the
 * record's own changes release it (./references.ts releaseImage). Deleting a file already gone is
 * harmless. Returns the keys whose files it removed.
 */
export async function sweepUploads(db: Db, storage: FileStorage, now = new Date(), graceMs = UPLOAD_GRACE_MS): Promise<string[]> {
  const before = new Date(now.getTime() - graceMs);
  const removed: string[] = [];
  for (;;) {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select({ key: uploads.key }).from(uploads)
        .where(lt(uploads.uploadedAt, before)).orderBy(asc(uploads.uploadedAt)).limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      const thumbKey = thumbnailKeyOf(row.key);
      const attached = await isReferenced(tx, [storage.urlOf(row.key), storage.urlOf(thumbKey)]);
      if (!attached) {
        await storage.delete(thumbKey);
        await storage.delete(row.key);
      }
      await tx.delete(uploads).where(eq(uploads.key, row.key));
      return { key: row.key, attached };
    });
    if (!outcome) return removed;
    if (!outcome.attached) removed.push(outcome.key);
  }
}

export interface UploadSweepOptions {
  /** How often a round runs (default UPLOAD_SWEEP_MS). */
  everyMs?: number;
  onError?: (err: unknown) => void;
}

/** The sweep of unattached uploads, now and every `everyMs` until stopped, one round at a time per process: a job of the one job runner (server/jobs/runner.ts), on its own period. */
export function startUploadSweep(ops: { db: Db; storage: FileStorage }, opts: UploadSweepOptions = {}) {
  return startJobRunner(
    [{ name: 'upload sweep', run: async () => (await sweepUploads(ops.db, ops.storage)).length }],
    { everyMs: opts.everyMs ?? UPLOAD_SWEEP_MS, onError: opts.onError },
  );
}
