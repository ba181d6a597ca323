import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { buildApp, type AppOptions } from './app';
import { isEmpty, openDatabase, type Database, type OpenOptions } from './db/client';
import { seed } from './db/seed';
import { mountGateway } from '../mesh/inProcess';

export interface StartOptions extends OpenOptions {
  port?: number;
  host?: string;
  jwtSecret: string;
  publicUrl?: string;
  /** Mount the built mesh at /graphql (default true). */
  gateway?: boolean;
  /** Serve the built SPA from this folder when it exists (default dist/). */
  spaDir?: string;
  logger?: boolean;
  sms?: AppOptions['sms'];
}

export interface RunningServer {
  url: string;
  database: Database;
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  close(): Promise<void>;
}

/** Opens (and on first run seeds) the database, then serves REST, the gateway and the SPA on one port. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const database = await openDatabase(opts);
  if (await isEmpty(database.db)) await seed(database.db);
  const { app } = await buildApp({
    db: database.db, jwtSecret: opts.jwtSecret, logger: opts.logger, sms: opts.sms,
    config: opts.publicUrl ? { publicUrl: opts.publicUrl } : {},
  });

  const spaDir = path.resolve(opts.spaDir ?? 'dist');
  if (existsSync(path.join(spaDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: spaDir, wildcard: false, index: 'index.html', maxAge: '1h', immutable: false });
    // Client-side routes (wouter) get the SPA shell; unknown API paths keep their JSON 404.
    app.setNotFoundHandler((req, reply) => {
      if (req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith('/graphql')) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.status(404).send({ result: null, success: false, error: { code: 0, message: `No route for ${req.method} ${req.url.split('?')[0]}`, details: null, validationErrors: null }, unAuthorizedRequest: false, targetUrl: null, __abp: true });
    });
  }

  const gateway = opts.gateway !== false ? await mountGateway(app) : null;
  await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const url = `http://${!opts.host || opts.host === '0.0.0.0' ? 'localhost' : opts.host}:${address.port}`;
  return {
    url,
    database,
    app,
    async close() {
      await app.close();
      await gateway?.destroy().catch(() => {});
      await database.close();
    },
  };
}
