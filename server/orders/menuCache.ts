import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { branches, branchSchedules, brandPayments, brands, catalogVersion, companies, currencies, paymentSystems, products, taxes } from '../db/schema';
import { liveProduct, loadMenuProducts, type MenuProduct } from '../services/productTypesAndSubtypes/menu';

/**
 * What an order at one branch is checked and priced against, as of one catalog version
 * (catalog_version, moved by triggers in the same transaction as any change of these rows).
 */
export interface BranchCatalog {
  version: number;
  branch: {
    row: typeof branches.$inferSelect;
    brandName: string;
    currency: string;
    accessible: boolean;
    paused: boolean;
  } | null;
  schedule: (typeof branchSchedules.$inferSelect)[];
  /** The brand's active payment methods: payment_systems.id → provider. */
  paymentProviders: Map<number, string>;
  /** The brand's active taxes, in percent. */
  taxPercents: number[];
  /** Every live product of the branch's brand as this branch offers it (loadMenuProducts). */
  menu: Map<number, MenuProduct>;
  /** The first moment a "sold out until" switch among these rows ends (ms since epoch): the rows are reread then. */
  freshUntil: number;
}

/** Branches kept per process; the least recently loaded goes first beyond it. */
const MAX_BRANCHES = 1_000;

/**
 * A per-process cache of each branch's catalog, so that an order reads no menu rows in the
 * common case. It is never trusted blindly: the order's write carries the version it was planned
 * on and writes nothing when the catalog moved since (saveOrder.ts); a refusal planned from the
 * cache is checked against the current version before it is answered (planOrder.ts). So a price
 * change, a switch or a new schedule is seen by the next order in every process sharing the
 * database, with no message that could be lost.
 */
export interface MenuCache {
  /** The branch's catalog: cached when its version is the newest seen, else read now. */
  catalogOf(branchId: number): Promise<BranchCatalog>;
  /** Reads the catalog's version; entries older than it are dropped. */
  currentVersion(): Promise<number>;
  /** The catalog is at `version` now (a write found it moved): older entries are dropped. */
  saw(version: number): void;
}

const caches = new WeakMap<Db, MenuCache>();

/** The cache of a database handle (one per server process and database). */
export function menuCacheOf(db: Db): MenuCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createMenuCache(db)));
  return cache;
}

function createMenuCache(db: Db): MenuCache {
  const entries = new Map<number, Promise<BranchCatalog>>();
  let newest = -1;
  // Entries older than the newest version seen are read again when next asked for.
  const saw = (version: number) => { if (version > newest) newest = version; };
  const currentVersion = async () => {
    const version = await readVersion(db);
    saw(version);
    return version;
  };
  const load = (branchId: number) => {
    const entry = loadCatalog(db, branchId).then((c) => {
      saw(c.version);
      // An unknown branch is not kept: made-up ids must not push real branches out.
      if (!c.branch && entries.get(branchId) === entry) entries.delete(branchId);
      return c;
    });
    // A failed read is not kept: the next order reads again.
    entry.catch(() => { if (entries.get(branchId) === entry) entries.delete(branchId); });
    entries.delete(branchId);
    entries.set(branchId, entry);
    if (entries.size > MAX_BRANCHES) entries.delete(entries.keys().next().value!);
    return entry;
  };
  return {
    async catalogOf(branchId) {
      const entry = entries.get(branchId);
      if (entry) {
        const catalog = await entry;
        if (catalog.version >= newest && Date.now() < catalog.freshUntil) return catalog;
        // Another request may have started the new read already.
        const next = entries.get(branchId);
        if (next && next !== entry) return next;
      }
      return load(branchId);
    },
    currentVersion,
    saw,
  };
}

async function readVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: catalogVersion.version }).from(catalogVersion).where(eq(catalogVersion.id, 1));
  return row?.version ?? 0;
}

/**
 * Reads the version FIRST, then the rows: a change committed in between makes the rows newer
 * than the version (the order's write then finds the version moved and plans again), never older.
 */
async function loadCatalog(db: Db, branchId: number): Promise<BranchCatalog> {
  const version = await readVersion(db);
  const [branch] = await db
    .select({ row: branches, brandName: brands.name, currency: currencies.code, accessible: companies.accessible, paused: companies.paused })
    .from(branches)
    .innerJoin(brands, eq(brands.id, branches.brandId))
    .innerJoin(companies, eq(companies.id, brands.companyId))
    .innerJoin(currencies, eq(currencies.id, brands.currencyId))
    .where(eq(branches.id, branchId));
  if (!branch) return { version, branch: null, schedule: [], paymentProviders: new Map(), taxPercents: [], menu: new Map(), freshUntil: Infinity };
  const brandId = branch.row.brandId;
  const schedule = await db.select().from(branchSchedules).where(eq(branchSchedules.branchId, branchId));
  const payments = await db.select({ id: brandPayments.paymentSystemId, provider: paymentSystems.provider }).from(brandPayments)
    .innerJoin(paymentSystems, eq(paymentSystems.id, brandPayments.paymentSystemId))
    .where(and(eq(brandPayments.brandId, brandId), eq(brandPayments.isActive, true)));
  const taxRows = await db.select({ percent: taxes.percent }).from(taxes).where(and(eq(taxes.brandId, brandId), eq(taxes.isActive, true)));
  const productIds = await db.select({ id: products.id }).from(products).where(and(eq(products.brandId, brandId), liveProduct));
  const menu = await loadMenuProducts(db, productIds.map((p) => p.id), branchId);
  // loadMenuProducts compared the switches with the database's now(): the rows hold until the first of them ends.
  const ends = [...menu.values()].flatMap((p) => [p.unavailableUntil, ...p.groups.flatMap((g) => g.options.map((o) => o.unavailableUntil))])
    .filter((d): d is Date => d !== null).map((d) => d.getTime());
  return {
    version, branch, schedule, menu,
    paymentProviders: new Map(payments.map((p) => [p.id, p.provider])),
    taxPercents: taxRows.map((t) => Number(t.percent)),
    freshUntil: ends.length ? Math.min(...ends) : Infinity,
  };
}

/** `where` fragment for the order's write: true only while the catalog is still at `version`. */
export const catalogStillAt = (version: number) =>
  sql`exists (select 1 from ${catalogVersion} where ${catalogVersion.id} = 1 and ${catalogVersion.version} = ${version})`;
