import { existsSync } from 'node:fs';
import { freshDatabase, guestToken, intake, loadAverage } from './intake';
import { hasNginx, startCluster } from '../tests/support/cluster';

/**
 * Issue 26: order intake through nginx (deploy/nginx.conf) with 1, 2 and 3 processes (app/main.ts,
 * gateway on, as deployed) on one PostgreSQL, in one run, each row with the machine's load average.
 * Each row on a fresh database, so a later row does not find a bigger table. The load generator is
 * intake's (autocannon, the priced order with options, a fresh Idempotency-Key per request).
 * PostgreSQL from DATABASE_URL (or TEST_DATABASE_URL). Prints figures; never fails on slowness.
 */
export async function benchScale({
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
  connections = 32,
  databaseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL,
} = {}) {
  if (!databaseUrl) { console.log('scale: skipped (set DATABASE_URL to a PostgreSQL server)'); return; }
  if (!hasNginx) { console.log('scale: skipped (no /usr/sbin/nginx)'); return; }
  if (!existsSync('.mesh/index.ts')) { console.log('scale: skipped (no build: npm run build)'); return; }
  console.log(`through nginx, ${connections} connections, ${seconds} s per row (the machine has ${(await import('node:os')).availableParallelism()} cores)`);
  for (const processes of [1, 2, 3]) {
    const db = await freshDatabase(databaseUrl);
    const cluster = await startCluster({ processes, databaseUrl: db.url });
    try {
      const token = await guestToken(cluster.url);
      await intake(cluster.url, token, 8, 3); // warm up every process's JIT and statement plans
      const r = await intake(cluster.url, token, connections, seconds);
      console.log(`  ${processes} process${processes > 1 ? 'es' : '  '} ${r.rps.toFixed(0).padStart(5)} orders/s p50 ${String(r.p50).padStart(4)} ms p99 ${String(r.p99).padStart(5)} ms${r.errors ? ` (${r.errors} errors)` : ''}   load average ${loadAverage()}`);
    } finally {
      await cluster.stop();
      await db.drop();
    }
  }
}
