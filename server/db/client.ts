import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL access for LISTEN/NOTIFY adapters. */
  client: unknown;
  close(): Promise<void>;
}

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** postgres://... — when set, PostgreSQL is used. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** A PGlite dump (dumpDataDir) to start from, so tests skip initdb. */
  loadDataDir?: Blob | File;
}

/** Opens the database (PostgreSQL when a URL is given, else embedded PGlite) and applies pending migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl) : await openPglite(opts);
  await migrate(database);
  return database;
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dataDir = opts.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the staff order search's trigram indexes (a migration creates the extension).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create(dataDir, { loadDataDir: opts.loadDataDir, extensions: { pg_trgm } });
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', client, close: () => client.close() };
}

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 10) });
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, kind: 'postgres', client: pool, close: () => pool.end() };
}

/**
 * The advisory lock that migrations and seeding run under on PostgreSQL, so replicas that start
 * together migrate and seed once (the others wait, then find the work done).
 */
export const SCHEMA_LOCK = 727001;

async function migrate(database: Database) {
  const config = { migrationsFolder: MIGRATIONS };
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, config);
    return;
  }
  // Several replicas may start at once: one migrates, the others wait on the lock.
  const pool = database.client as import('pg').Pool;
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(drizzle(conn), config);
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {});
    conn.release();
  }
}

/** The rows of a raw `db.execute`: PGlite and node-postgres answer in different shapes. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** True when the demo data has not been written yet. */
export async function isEmpty(db: Db | Tx): Promise<boolean> {
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users`));
  return n === 0;
}
