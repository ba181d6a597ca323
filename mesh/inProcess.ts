import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { registerGraphiQLAssets, renderOfflineGraphiQL } from './graphiql';
import { IN_PROCESS_ORIGIN, setInProcessUpstream } from './fetch';
import { setLiveOrderFeed } from './liveFeed';
import { directExecutor } from './direct';
import type { LiveOrderFeedSource } from '../server/events/orderFeed';

/**
 * Mounts the built mesh (.mesh/, written by `npm run build`) at /graphql on the Fastify server
 * that also serves the REST services. The gateway then reaches them in-process (app.inject),
 * with no network hop. One gateway per process: the built mesh is a module singleton.
 * `liveFeed` feeds the `orderEvents` subscription (mesh/subscriptions.ts).
 */
export async function mountGateway(app: FastifyInstance, opts: { liveFeed?: LiveOrderFeedSource; direct?: boolean } = {}) {
  process.env.MESH_UPSTREAM_URL = IN_PROCESS_ORIGIN;
  setInProcessUpstream((req) => app.inject(req));
  setLiveOrderFeed(opts.liveFeed ?? null);
  const built = await import(pathToFileURL(path.resolve('.mesh/index.ts')).href);
  // GraphiQL (on outside production, as Mesh decides) renders our same-origin page, not the CDN one (mesh/graphiql.ts).
  const handler = createMeshHTTPHandler<{ req: unknown; reply: unknown }>({
    baseDir: path.resolve('.'),
    getBuiltMesh: built.getBuiltMesh,
    rawServeConfig: { ...built.rawServeConfig, playground: { offline: true } },
    renderGraphiQL: renderOfflineGraphiQL as never,
  });
  registerGraphiQLAssets(app);
  // Build the schema now so the first request does not pay for it.
  const mesh = await built.getBuiltMesh();
  // `direct: false` (tests only) sends everything through Yoga, to compare the two paths' answers.
  const direct = opts.direct === false ? async () => null : directExecutor(mesh);
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    schema: { hide: true },
    async handler(req, reply) {
      // A plain query or mutation skips Yoga's HTTP adapter (mesh/direct.ts); the rest goes through it.
      const answered = await direct(req, reply);
      if (answered !== null) return reply.send(answered);
      const response = await handler.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value: string, key: string) => reply.header(key, value));
      reply.status(response.status);
      // Subscriptions over SSE or multipart stream; every other answer is one string already, and
      // sending it as a string spares a stream pipe and chunked encoding on every read.
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('event-stream') || type.includes('multipart')) return reply.send(response.body);
      return reply.send(await response.text());
    },
  });
  return { destroy: async () => { setInProcessUpstream(null); setLiveOrderFeed(null); mesh.destroy(); } };
}
