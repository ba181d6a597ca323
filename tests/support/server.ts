import { readFileSync } from 'node:fs';
import { Blob as NodeBlob } from 'node:buffer';
import { rowsOf } from '../../server/db/client';
import { startServer, type RunningServer, type StartOptions } from '../../app/start';
import { SEED_DUMP } from './globalSetup';
import { freshPostgresDatabase } from './pgDatabase';
import { queryString, restHelpers, type Envelope } from './restHelpers';

/**
 * A real server on a fresh database for one test file: PGlite started from the seeded dump,
 * or a fresh schema on PostgreSQL when TEST_DATABASE_URL is set (.ci/run does that).
 */
export async function startTestServer(opts: Partial<StartOptions> = {}): Promise<TestServer> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const base: Partial<StartOptions> = pgUrl
    ? { databaseUrl: await freshPostgresDatabase(pgUrl) }
    : { dataDir: 'memory://', loadDataDir: new NodeBlob([readFileSync(SEED_DUMP)]) as unknown as Blob };
  const server = await startServer({ jwtSecret: 'test-secret-0123456789abcdef', gateway: false, spaDir: '/nonexistent', ...base, ...opts });
  return Object.assign(server, { api: apiClient(server) });
}

export type TestServer = RunningServer & { api: ReturnType<typeof apiClient> };

/** Thin REST helpers over app.inject: the real routes, schemas and database, no network. */
function apiClient(server: RunningServer) {
  return restHelpers(async (method, url, opts = {}) => {
    const res = await server.app.inject({
      method,
      url: `${url}${queryString(opts.query)}`,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    return { status: res.statusCode, body: res.json() as Envelope };
  });
}

export type { Envelope };
export { freshPostgresDatabase };

/** Counts rows of a table, to prove that a refused request wrote nothing. */
export async function countRows(server: RunningServer, table: string): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const res = await server.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
  return rowsOf<{ n: number }>(res)[0].n;
}
