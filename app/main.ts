import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, persistentSecret, readConfig } from '../server/config';
import { DataDirBusyError, lockDataDir, secureDataDir, type DataDirLock } from '../server/dataDir';
import type { RunningServer } from './start';

/** `npm start`: the whole product on one port. */

// Before anything is created: whatever the server writes is its owner's only.
process.umask(0o077);
let config: ReturnType<typeof readConfig>;
try {
  config = readConfig();
} catch (err) {
  // A setting that cannot work (half an S3 configuration…): said at once, nothing opened.
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Brew Ops cannot start: ${err.message}`);
  process.exit(1);
}
// PGlite is one process per DATA_DIR. On PostgreSQL, replicas may share DATA_DIR (for the JWT secret).
const embedded = !config.databaseUrl;
let lock: DataDirLock | null = null;
try {
  lock = embedded ? lockDataDir(config.dataDir) : null;
} catch (err) {
  if (!(err instanceof DataDirBusyError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// Also fixes data directories written before the server restricted its files.
if (existsSync(config.dataDir)) secureDataDir(config.dataDir);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // A second signal changes nothing: the stop is bounded by the drain deadline anyway.
  process.on(signal, () => { if (!stopping) void stop(signal); });
}

const started = Date.now();
// Loaded only now, so that a refused start above is immediate and loads no database code.
const { startServer } = await import('./start');
const { DEMO_ACCOUNTS, DEMO_PASSWORD } = await import('../server/db/seed');
const { localFileStorage, s3FileStorage } = await import('../server/storage');
const bucket = config.storage.kind === 's3' ? s3FileStorage(config.storage) : null;
const storage = bucket ?? localFileStorage(path.join(config.dataDir, 'uploads'));
if (bucket) {
  // A wrong endpoint, bucket or key refuses the start, rather than the first upload.
  try {
    await bucket.check();
  } catch (err) {
    console.error(`Brew Ops cannot start: ${(err as Error).message}`);
    lock?.release();
    process.exit(1);
  }
}
const starting = startServer({
  databaseUrl: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  jwtSecret: config.jwtSecret ?? persistentSecret(config.dataDir),
  publicUrl: config.publicUrl,
  http: config.http,
  port: config.port,
  host: config.host,
  gateway: config.gateway,
  storage,
  drainNoticeMs: config.drainNoticeMs,
  logger: process.env.LOG_REQUESTS === '1',
  timedWork: true,
  demoHistory: true,
  metricsToken: config.metricsToken,
});
let server: RunningServer;
try {
  server = await starting;
} catch (err) {
  console.error('Brew Ops could not start:', err);
  process.exit(1);
}

const publicUrl = config.publicUrl ?? server.url;
if (!stopping) console.log(`
Brew Ops is ready in ${Date.now() - started} ms on ${server.database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${config.dataDir})`}, uploads ${config.storage.kind === 's3' ? `in the bucket ${config.storage.bucket}` : 'on the disk'}
  shop and console  ${publicUrl}/
  REST services     ${publicUrl}/api/...
  OpenAPI           ${publicUrl}/api/openapi.json
  GraphQL gateway   ${publicUrl}/graphql

Demo accounts (password ${DEMO_PASSWORD}):
${DEMO_ACCOUNTS.map((a) => `  ${a.userName.padEnd(14)} ${a.role}`).join('\n')}
`);

/**
 * SIGTERM / SIGINT: /readyz answers 503 at once (for DRAIN_NOTICE_MS requests are still taken, so
 * a load balancer polling it stops sending here), then stop taking requests, end the live-feed
 * streams, finish the requests in flight (at most 10 s), close the database, exit 0. A signal
 * during start-up lets the start finish first.
 */
async function stop(signal: string) {
  stopping = true;
  const t0 = Date.now();
  console.log(`${signal}: stopping Brew Ops (${config.drainNoticeMs ? `/readyz says draining for ${config.drainNoticeMs} ms, then ` : ''}requests in flight get up to 10 s)`);
  // Last resort, should closing the database itself hang.
  const lastResortMs = 20_000 + config.drainNoticeMs;
  setTimeout(() => { console.error(`Brew Ops did not stop within ${lastResortMs / 1000} s`); process.exit(1); }, lastResortMs).unref();
  try {
    await (await starting.catch(() => null))?.close();
    if (embedded) secureDataDir(config.dataDir);
    lock?.release();
  } catch (err) {
    console.error('Brew Ops did not stop cleanly:', err);
    process.exit(1);
  }
  console.log(`Brew Ops stopped in ${Date.now() - t0} ms`);
  process.exit(0);
}
