import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { Db } from './db/client';
import { createTokenService } from './auth/tokens';
import type { CallerChanges } from './auth/callers';
import { createAuth, type AppConfig, type AppContext } from './http/context';
import { ApiError, fail } from './http/envelope';
import { requestLanguage } from './http/language';
import { translateError } from './messages/arabic';
import { checkInputShape } from './http/inputSafety';
import { lazySchemaCompilers } from './http/lazySchemas';
import { outboxSmsProvider, type SmsProvider } from './services/verification/codes';
import { SERVICES } from './services';
import { securityDefaults } from './http/security';
import { isClientRoute, registerSpa } from './http/spa';
import { inMemoryOrderEvents, type OrderEvents } from './events/orderEvents';
import { StorageUnavailableError, temporaryFileStorage, type FileStorage } from './storage';
import { followOrderStatusPushes, startPushLoop, type PushSender } from './notify';

export interface AppOptions {
  db: Db;
  jwtSecret: string;
  config?: Partial<AppConfig>;
  sms?: SmsProvider;
  events?: OrderEvents;
  /** Where uploads are kept; a fresh temp folder when not given. */
  storage?: FileStorage;
  /** Web push of customer notifications (server/notify); none: the shop's inbox only. */
  push?: PushSender | null;
  /** Log every request (LOG_REQUESTS=1). Server errors (5xx) are logged either way. */
  logger?: boolean;
  /** Where log lines go (default stdout); tests read the error lines from here. */
  logStream?: { write(line: string): void };
  /** Serve the built SPA from this folder when it holds an index.html. */
  spaDir?: string;
  /** This process's LISTEN for changed users (server/auth/callers.ts): callers are then kept between requests; none: read on each request. */
  callerChanges?: CallerChanges | null;
}

/** Builds the REST services. The caller mounts the gateway and the SPA (app/main.ts). */
export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    // Errors are always logged, each with its request id; at level 'error' the request lines (info) are not.
    logger: { level: opts.logger ? process.env.LOG_LEVEL ?? 'info' : 'error', ...(opts.logStream && { stream: opts.logStream }) },
    // A fresh id per request, never taken from the client, so a log line cannot be forged or confused.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Coercion is for querystrings, params and headers only: JSON bodies are never coerced (server/http/lazySchemas.ts).
    // multipleOfPrecision: 0.043 / 0.001 is 42.99999… in floating point; without it ajv refused one 3-decimal amount in eight.
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: true, multipleOfPrecision: 6 } },
    // Each route's validators and serializers are compiled on its first request, not at start-up.
    schemaController: { compilersFactory: lazySchemaCompilers as never },
    bodyLimit: 2 * 1024 * 1024,
    exposeHeadRoutes: false,
    trustProxy: opts.config?.http?.trustProxy ?? false,
  });
  const tokens = createTokenService(opts.jwtSecret);
  const auth = createAuth(opts.db, tokens, opts.callerChanges ?? null);
  const ctx: AppContext = {
    db: opts.db,
    tokens,
    sms: opts.sms ?? outboxSmsProvider,
    events: opts.events ?? inMemoryOrderEvents(),
    storage: opts.storage ?? temporaryFileStorage(),
    push: opts.push ? startPushLoop(opts.db, opts.push, { onError: (err) => app.log.error({ err }, 'web push round failed') }) : null,
    auth,
    config: { publicUrl: 'http://localhost:8080', ...opts.config },
  };

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Brew Ops REST services', version: '1.0.0', description: 'ABP-shaped REST services. Every answer is wrapped in the ABP envelope.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });

  // Every answer names its request, so a client can quote the id a server error was logged under.
  app.addHook('onRequest', async (req, reply) => { reply.header('x-request-id', req.id); });
  // Path parameters (the sandbox payment page, uploads: routes outside service()) get the same NUL and depth check as query and body.
  app.addHook('preValidation', async (req) => { checkInputShape(req.params, 'params'); });
  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    const apiError = toApiError(error, req);
    if (apiError.status >= 500) {
      // The route's pattern, not the URL: a query string can carry a secret (an order's ohash).
      req.log.error({ err: error, method: req.method, route: req.routeOptions.url ?? null }, 'request failed');
    }
    if (apiError.retryAfterSeconds) reply.header('retry-after', String(apiError.retryAfterSeconds));
    reply.status(apiError.status).send(fail(translateError(apiError, requestLanguage(req.headers))));
  });
  securityDefaults(app, ctx.config);
  const serveSpa = await registerSpa(app, opts.spaDir);
  app.setNotFoundHandler((req, reply) => {
    // Client-side routes (wouter) get the SPA shell; unknown API paths and missing files are a 404.
    if (serveSpa && isClientRoute(req)) return reply.sendFile('index.html');
    return reply.status(404).send(fail(new ApiError(404, `No route for ${req.method} ${req.url.split('?')[0]}`)));
  });

  for (const register of SERVICES) register(app, ctx);
  // Order status pushes (issue 27): accepted, ready, rejected reach the customer's browsers.
  const unfollowOrders = ctx.push ? followOrderStatusPushes(ctx.db, ctx.events, ctx.push, (err) => app.log.error({ err }, 'order status push failed')) : null;
  app.addHook('onClose', async () => { unfollowOrders?.(); auth.close(); await ctx.push?.stop(); });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return { app, ctx };
}

function toApiError(error: FastifyError | ApiError, req: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const fe = error as FastifyError;
  if (fe.validation) {
    const validationErrors = fe.validation.map((v) => {
      const member = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
        String((v.params as { missingProperty?: string })?.missingProperty ?? fe.validationContext ?? '');
      return { message: `${member ? `${member}: ` : ''}${v.message ?? 'is not valid'}`, members: member ? [member] : [] };
    });
    return new ApiError(400, 'Your request is not valid!', validationErrors, validationErrors.map((v) => v.message).join('\n'));
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return new ApiError(fe.statusCode, fe.message);
  // The bucket (S3_*) did not answer: try again later; still logged above as a server error.
  if (error instanceof StorageUnavailableError) return new ApiError(503, 'The file storage cannot be reached right now. Please try again.');
  return new ApiError(500, 'An internal error occurred during your request!', null, `Request id: ${req.id}`);
}
