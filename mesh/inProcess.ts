import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { graphiqlFromEnv, registerGraphiQLAssets, renderOfflineGraphiQL } from './graphiql';
import { IN_PROCESS_ORIGIN, setInProcessUpstream } from './fetch';
import { setLiveOrderFeed } from './liveFeed';
import { directExecutor } from './direct';
import type { LiveOrderFeedSource } from '../server/events/orderFeed';
import { ApiError } from '../server/http/envelope';

/**
 * Mounts the built mesh (.mesh/, written by `npm run build`) at /graphql on the Fastify server
 * that also serves the REST services. The gateway then reaches them in-process (app.inject),
 * with no network hop. One gateway per process: the built mesh is a module singleton.
 * `liveFeed` feeds the `orderEvents` subscription (mesh/subscriptions.ts).
 */
export async function mountGateway(app: FastifyInstance, opts: { liveFeed?: LiveOrderFeedSource; direct?: boolean; graphiql?: boolean } = {}) {
  const graphiql = opts.graphiql ?? graphiqlFromEnv(process.env);
  process.env.MESH_UPSTREAM_URL = IN_PROCESS_ORIGIN;
  // Our own options are well-formed: light-my-request's per-call check of them is skipped.
  setInProcessUpstream((req) => app.inject({ ...req, validate: false }));
  setLiveOrderFeed(opts.liveFeed ?? null);
  // The built mesh is the largest part of a start (importing .mesh/ and building its schema): it
  // loads once the server listens, and a /graphql request that comes first waits for it.
  let loading: ReturnType<typeof loadMesh> | undefined;
  const load = () => {
    if (!loading) {
      loading = loadMesh();
      // Logged, and tried again on the next request (a build may have been rewriting .mesh/).
      loading.catch((err) => { loading = undefined; app.log.error({ err }, 'the GraphQL gateway could not load the built mesh (.mesh/): run npm run build'); });
    }
    return loading;
  };
  // After listen, and a turn later still, so the start-up's own last steps (the ready line) go first.
  let destroyed = false;
  app.addHook('onListen', async () => { setTimeout(() => { if (!destroyed) load().catch(() => {}); }, 0); });
  const loadMesh = async () => {
    const built = await import(pathToFileURL(path.resolve('.mesh/index.ts')).href);
    // GraphiQL, when on (graphiqlFromEnv), renders our same-origin page, not the CDN one (mesh/graphiql.ts).
    const handler = createMeshHTTPHandler<{ req: unknown; reply: unknown }>({
      baseDir: path.resolve('.'),
      getBuiltMesh: built.getBuiltMesh,
      // An object turns the playground on whatever NODE_ENV says; false turns it off.
      rawServeConfig: { ...built.rawServeConfig, playground: graphiql ? { offline: true } : false },
      renderGraphiQL: renderOfflineGraphiQL as never,
    });
    const mesh = await built.getBuiltMesh();
    // `direct: false` (tests only) sends everything through Yoga, to compare the two paths' answers.
    const direct = opts.direct === false ? async () => null : directExecutor(mesh);
    return { handler, mesh, direct };
  };
  if (graphiql) registerGraphiQLAssets(app);
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    schema: { hide: true },
    async handler(req, reply) {
      const { handler, direct } = await load().catch(() => { throw new ApiError(503, 'The GraphQL gateway is not available. Please try again later.'); });
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
  return {
    /** Resolves when the built mesh has loaded (rejects if it cannot). */
    ready: () => load().then(() => {}),
    destroy: async () => {
      destroyed = true;
      setInProcessUpstream(null);
      setLiveOrderFeed(null);
      (await loading?.catch(() => null))?.mesh.destroy();
    },
  };
}
