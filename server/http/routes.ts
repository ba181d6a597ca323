import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { can, type Capability } from '../../domain/permissions';
import { envelope, forbidden, ok, unauthorized } from './envelope';
import { boundedInputSchema, checkFiniteNumbers, checkInputShape } from './inputSafety';
import type { AppContext, Caller } from './context';

/**
 * Who may call a route: anyone ('public'), any signed-in caller ('user'), a customer
 * (registered or guest, 'customer'), or the staff roles holding a capability of the permission table.
 */
export type Access = 'public' | 'user' | 'customer' | Capability;

export interface RouteDef<Q extends TSchema, B extends TSchema, R extends TSchema, H extends TSchema> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  name: string;
  access: Access;
  /**
   * For a route a caller without a token may still call when the request itself proves the right
   * (an order's ohash in its query): asked in onRequest with the raw request, before any input
   * check; false is the usual 401. A caller with a token is held to `access` as always.
   */
  admitsWithoutToken?: (req: FastifyRequest, ctx: AppContext) => Promise<boolean>;
  summary?: string;
  query?: Q;
  body?: B;
  headers?: H;
  result: R;
  handler: (input: {
    query: Static<Q>;
    body: Static<B>;
    headers: Static<H>;
    caller: Caller;
    ctx: AppContext;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<Static<R>>;
}

const Empty = Type.Object({});
type AnyRoute = RouteDef<TSchema, TSchema, TSchema, TSchema>;

/** Declares one route with full typing; `service()` mounts a list of them. */
export const route = <Q extends TSchema = typeof Empty, B extends TSchema = typeof Empty, R extends TSchema = TSchema, H extends TSchema = typeof Empty>(
  def: RouteDef<Q, B, R, H>,
) => def as unknown as AnyRoute;

/**
 * Mounts a service's routes under `prefix` (default /api/services/app/<Service>/<Method>), with
 * the envelope as response schema. Each route is held to the same order of checks
 * (docs/decisions.md "Hardening: input"):
 *  1. onRequest: who is calling and may they (401/403), before the body is even read, so a
 *     refused caller never learns anything about the input;
 *  2. preValidation: no NUL character and no deep nesting anywhere in the query or body;
 *  3. the schema, with every integer and number bounded to what its column holds (400);
 *  4. preHandler: every number is finite (what the schema's coercion lets through);
 *  5. the handler, with the caller.
 */
export function service(app: FastifyInstance, ctx: AppContext, serviceName: string, routes: AnyRoute[], prefix = `/api/services/app/${serviceName}`) {
  for (const def of routes) {
    app.route({
      method: def.method,
      url: `${prefix}/${def.name}`,
      schema: {
        operationId: `${serviceName}_${def.name}`,
        tags: [serviceName],
        ...(def.summary && { summary: def.summary }),
        ...(def.query && { querystring: boundedInputSchema(def.query) }),
        ...(def.body && { body: boundedInputSchema(def.body) }),
        ...(def.headers && { headers: boundedInputSchema(def.headers) }),
        response: { 200: envelope(def.result, `${serviceName}${def.name}`) },
      },
      onRequest: async (req) => {
        const caller = await ctx.auth.callerOf(req);
        if (!caller && def.admitsWithoutToken && await def.admitsWithoutToken(req, ctx)) return;
        authorize(def.access, caller);
      },
      preValidation: async (req) => {
        checkInputShape(req.query, 'querystring');
        checkInputShape(req.body, 'body');
      },
      preHandler: async (req) => {
        checkFiniteNumbers(req.query, 'querystring');
        checkFiniteNumbers(req.body, 'body');
      },
      handler: async (req, reply) => {
        // Resolved and authorised in onRequest; callerOf answers from its per-request cache.
        const caller = await ctx.auth.callerOf(req);
        const result = await def.handler({
          query: req.query as never, body: req.body as never, headers: req.headers as never, caller, ctx, req, reply,
        });
        return ok(result);
      },
    });
  }
}

export function authorize(access: Access, caller: Caller) {
  if (access === 'public') return;
  if (!caller) throw unauthorized();
  if (access === 'user') return;
  if (access === 'customer') {
    if (caller.role !== 'CUSTOMER') throw forbidden();
    return;
  }
  if (!can(caller.role, access)) throw forbidden();
}
