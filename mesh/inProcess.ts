import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { registerGraphiQLAssets, renderOfflineGraphiQL } from './graphiql';
import { IN_PROCESS_ORIGIN, setInProcessUpstream } from './fetch';
import { setLiveOrderFeed } from './liveFeed';
import type { LiveOrderFeedSource } from '../server/events/orderFeed';

/**
 * Mounts the built mesh (.mesh/, written by `npm run build`) at /graphql on the Fastify server
 * that also serves the REST services. The gateway then reaches them in-process (app.inject),
 * with no network hop. One gateway per process: the built mesh is a module singleton.
 * `liveFeed` feeds the `orderEvents` subscription (mesh/subscriptions.ts).
 */
export async function mountGateway(app: FastifyInstance, opts: { liveFeed?: LiveOrderFeedSource } = {}) {
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
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    schema: { hide: true },
    async handler(req, reply) {
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
  // Build the schema now so the first request does not pay for it.
  const mesh = await built.getBuiltMesh();
  return { destroy: async () => { setInProcessUpstream(null); setLiveOrderFeed(null); mesh.destroy(); } };
}
