import type { FastifyInstance } from 'fastify';

/**
 * Legacy clients send some PUT/POST calls with their parameters in the query and no body
 * (ABP binds primitives from the query). For the given service paths, a missing body is read
 * as `{}`, so the route's body schema (all properties optional) validates and the handler
 * falls back to the query.
 */
export function allowEmptyBody(app: FastifyInstance, paths: string[]) {
  const set = new Set(paths);
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && set.has(req.routeOptions.url ?? '')) req.body = {};
  });
}
