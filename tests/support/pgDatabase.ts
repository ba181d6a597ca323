/**
 * Each test file gets its own database on the PostgreSQL server, created empty and then migrated and
 * seeded by the server that opens it. Its own module, so a test that only spawns a server process
 * (tests/support/serverProcess.ts) does not load the whole server into the test's worker.
 */
export async function freshPostgresDatabase(adminUrl: string) {
  const pg = (await import('pg')).default;
  const name = `t_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

