import { or, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { branches, brandAdvertisements, brands, companies, products } from '../../db/schema';
import type { FileStorage } from '../../storage/storage';
import { thumbnailKeyOf } from './images';

/**
 * Every column that holds the URL of an uploaded image. A stored file is content-addressed, so
 * several rows may share it: it is removed only when none of these refers to it any more.
 * A new table with an image column (news, advertisements…) is added here.
 */
export const IMAGE_COLUMNS: [PgTable, AnyColumn[]][] = [
  [companies, [companies.logoUrl, companies.bannerUrl]],
  [brands, [brands.logoUrl, brands.bannerUrl]],
  [branches, [branches.logoUrl]],
  [products, [products.productImage, products.productSecondImage, products.productThirdImage]],
  [brandAdvertisements, [brandAdvertisements.imageUrl]],
];

/** Whether any row of IMAGE_COLUMNS holds one of these URLs. */
export async function isReferenced(db: Db | Tx, urls: string[]): Promise<boolean> {
  for (const [table, columns] of IMAGE_COLUMNS) {
    const where = or(...columns.flatMap((column) => urls.map((url) => eq(column, url))));
    const rows = await db.select({ one: sql<number>`1` }).from(table).where(where).limit(1);
    if (rows.length) return true;
  }
  return false;
}

/**
 * Removes an uploaded image and its list copy when no row refers to either any more. URLs that
 * this storage did not make (the seed's bundled images, outside links) are left alone.
 */
export async function releaseImage(db: Db, storage: FileStorage, url: string | null | undefined): Promise<void> {
  const key = url ? storage.keyOf(url) : null;
  if (!key || key.split('.').length !== 2) return; // not ours, or a list copy named directly
  const thumbKey = thumbnailKeyOf(key);
  if (await isReferenced(db, [storage.urlOf(key), storage.urlOf(thumbKey)])) return;
  await storage.delete(key);
  await storage.delete(thumbKey);
}
