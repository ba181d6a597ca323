import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { seed } from '../../server/db/seed';

/**
 * Builds one migrated and seeded PGlite database and dumps it, so each test starts its own
 * database from the dump instead of paying initdb (2.5–5 s) every time. Rebuilt when the
 * migrations or the seed change.
 */
export const SEED_DUMP = path.resolve('tests/.artifacts/seed-db.tar.gz');

export default async function setup() {
  const inputs = ['server/db/migrations', 'server/db/seed.ts', 'server/db/kuwaitAreas.ts', 'server/db/demoScans.ts'];
  const hash = createHash('sha256');
  for (const input of inputs) {
    const files = existsSync(input) && !input.endsWith('.ts') ? readdirSync(input, { recursive: true }).map((f) => path.join(input, String(f))).sort() : [input];
    for (const f of files) if (f.endsWith('.sql') || f.endsWith('.ts') || f.endsWith('.json')) hash.update(f).update(readFileSync(f));
  }
  const digest = hash.digest('hex');
  const stamp = `${SEED_DUMP}.sha256`;
  if (existsSync(SEED_DUMP) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  mkdirSync(path.dirname(SEED_DUMP), { recursive: true });
  const database = await openDatabase({ dataDir: 'memory://' });
  await seed(database.db);
  const dump = await (database.client as import('@electric-sql/pglite').PGlite).dumpDataDir('gzip');
  // Written aside and renamed, so a concurrent run never reads half a dump.
  const tmp = `${SEED_DUMP}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, SEED_DUMP);
  writeFileSync(stamp, digest);
  await database.close();
}
