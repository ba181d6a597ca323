import path from 'node:path';
import { readConfig } from './config';
import { startServer } from './start';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/seed';

/** `npm start`: the whole product on one port. */
const config = readConfig();
const started = Date.now();
const server = await startServer({
  databaseUrl: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  jwtSecret: config.jwtSecret,
  publicUrl: config.publicUrl,
  http: config.http,
  port: config.port,
  host: config.host,
  gateway: config.gateway,
  logger: process.env.LOG_REQUESTS === '1',
});

console.log(`
Brew Ops is ready in ${Date.now() - started} ms on ${server.database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${config.dataDir})`}
  shop and console  ${config.publicUrl}/
  REST services     ${config.publicUrl}/api/...
  OpenAPI           ${config.publicUrl}/api/openapi.json
  GraphQL gateway   ${config.publicUrl}/graphql

Demo accounts (password ${DEMO_PASSWORD}):
${DEMO_ACCOUNTS.map((a) => `  ${a.userName.padEnd(14)} ${a.role}`).join('\n')}
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().finally(() => process.exit(0));
  });
}
