import { readFileSync } from 'node:fs';
import { startServer } from '../../server/start';
import { SEED_DUMP } from './globalSetup';

/**
 * A real server in its own process, on a fresh database from the seeded dump, for the jsdom and
 * browser tests (the server must not run inside jsdom). Prints its URL as JSON on stdout.
 */
const server = await startServer({
  ...(process.env.TEST_DATABASE_URL
    ? { databaseUrl: process.env.TEST_DATABASE_URL }
    : { dataDir: 'memory://', loadDataDir: new Blob([readFileSync(SEED_DUMP)]) }),
  jwtSecret: 'test-secret-0123456789abcdef',
  gateway: true,
  spaDir: 'dist',
  port: 0,
  publicUrl: process.env.PUBLIC_URL,
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => { server.close().finally(() => process.exit(0)); });
