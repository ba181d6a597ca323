import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The browser-facing HTTP settings (README "Settings"). */
export interface HttpSettings {
  /** Origins, besides the app's own (PUBLIC_URL), whose pages may call /api and /graphql (CORS_ORIGINS). */
  corsOrigins: string[];
  /** A proxy in front sets X-Forwarded-Proto and -For (TRUST_PROXY); without it those headers are ignored. */
  trustProxy: boolean;
  /** Extra connect-src sources of the SPA: the Firestore hosts when the console listens to Firestore. */
  connectSources: string[];
}

export const NO_HTTP_SETTINGS: HttpSettings = { corsOrigins: [], trustProxy: false, connectSources: [] };

export function httpSettingsFromEnv(env: NodeJS.ProcessEnv): HttpSettings {
  const corsOrigins = (env.CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((value) => {
    // A wildcard would let any site read answers with the caller's token: only exact origins.
    const origin = value === '*' ? null : originOf(value);
    if (!origin || origin.toLowerCase() !== value.replace(/\/$/, '').toLowerCase()) throw new Error(`CORS_ORIGINS: "${value}" is not an origin such as https://shop.example.com`);
    return origin;
  });
  const connectSources: string[] = [];
  // The console's Firestore feed is configured at build time (VITE_FIREBASE_*); the same settings open its hosts here.
  if (env.VITE_FIREBASE_PROJECT_ID?.trim()) connectSources.push('https://firestore.googleapis.com');
  const emulator = env.VITE_FIRESTORE_EMULATOR_HOST?.trim();
  if (emulator) connectSources.push(originOf(/^https?:\/\//.test(emulator) ? emulator : `http://${emulator}`) ?? emulator);
  return { corsOrigins, trustProxy: /^(1|true|yes|on)$/i.test(env.TRUST_PROXY ?? ''), connectSources };
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of the shop, the console and every other answer. No inline script
 * anywhere, and stylesheets (<style>, <link>) only from this origin. Inline style *attributes* are
 * allowed (style-src-attr), nothing more: Blueprint's Table2 writes its cell geometry as style
 * attributes, which change with every layout, so hashes cannot list them; an attribute cannot run
 * script. React's style props go through the CSSOM, which CSP does not govern. Images may be
 * data:/blob: (OpenLayers, canvases) or any https host (brand and product images on an object
 * store, map tiles of VITE_MAP_TILE_URL).
 */
export function appContentSecurityPolicy(publicUrl: string, settings: HttpSettings): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    ['connect-src', "'self'", ...settings.connectSources].join(' '),
    "media-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // The sandbox payment page's forms post here and are redirected to PUBLIC_URL's /track-order.
    unique(['form-action', "'self'", originOf(publicUrl) ?? "'self'"]).join(' '),
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * GraphiQL (GET /graphql in a browser, only with GRAPHIQL=on: mesh/graphiql.ts) is served from our own origin
 * (mesh/graphiql.ts): its script, style sheet and Monaco's workers are files under /graphql/graphiql/,
 * so no inline script and no CDN. Styles stay 'unsafe-inline': the editor injects <style> elements.
 */
export const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const HSTS = 'max-age=31536000';
/** What a cross-origin caller may send: the API's verbs and the headers the shop and the console send. */
export const CORS_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
export const CORS_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'Accept'];
export const CORS_MAX_AGE_SECONDS = 600;

/** The origins allowed to call /api and /graphql from a browser: CORS_ORIGINS and the app's own. */
export function allowedCorsOrigins(publicUrl: string | undefined, settings: HttpSettings): Set<string> {
  return new Set([...settings.corsOrigins, publicUrl && originOf(publicUrl)].filter((o): o is string => !!o));
}

const pathOf = (url: string) => url.split('?')[0];
/** The browser-callable services: the REST API and the gateway. */
const isCorsPath = (url: string) => { const p = pathOf(url); return p.startsWith('/api/') || p === '/graphql'; };

/**
 * Every answer of the REST API, the gateway and /metrics is kept by no browser or proxy: they carry
 * one caller's data (a profile, a wallet, an order), and errors and refusals are as private. The
 * OpenAPI document (/api/openapi.json) is public but changes with each release and is read only by
 * tools, so it gets the same. Pages and files keep their own policy (spa.ts SPA_CACHE, the uploads'
 * UPLOAD_CACHE_CONTROL, GraphiQL's assets under /graphql/graphiql/).
 */
export const API_CACHE_CONTROL = 'no-store';
const isApiPath = (url: string) => { const p = pathOf(url); return p === '/api' || p.startsWith('/api/') || p === '/graphql' || p === '/metrics'; };

/**
 * Security headers on every answer (pages, files, API JSON, errors, 404s) and the one CORS policy of
 * /api and /graphql. Hooks on the root instance, so every route and the not-found handler get them;
 * call before routes are registered. A route that sets its own Content-Security-Policy keeps it.
 */
export function securityDefaults(app: FastifyInstance, config: { publicUrl: string; http?: HttpSettings }) {
  const settings = config.http ?? NO_HTTP_SETTINGS;
  // publicUrl may be settled only once the server listens (no PUBLIC_URL: its own address), so read it per answer.
  let policy = { publicUrl: '', appCsp: '', allowedOrigins: new Set<string>() };
  const current = () => {
    if (policy.publicUrl !== config.publicUrl) {
      policy = {
        publicUrl: config.publicUrl,
        appCsp: appContentSecurityPolicy(config.publicUrl, settings),
        allowedOrigins: allowedCorsOrigins(config.publicUrl, settings),
      };
    }
    return policy;
  };

  // A CORS preflight (no route answers OPTIONS) ends here; onSend adds the headers for allowed origins.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method === 'OPTIONS' && isPreflight(req) && isCorsPath(req.url)) return reply.status(204).send();
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    if (!reply.hasHeader('content-security-policy')) {
      const graphiql = pathOf(req.url) === '/graphql' && String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      reply.header('content-security-policy', graphiql ? GRAPHIQL_CONTENT_SECURITY_POLICY : current().appCsp);
    }
    // req.protocol reads X-Forwarded-Proto only when Fastify's trustProxy is on (buildApp).
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Set last and over whatever a handler set: a refusal or an error is as private as an answer.
    if (isApiPath(req.url)) reply.header('cache-control', API_CACHE_CONTROL);
    if (isCorsPath(req.url)) applyCors(req, reply, current().allowedOrigins);
    return payload;
  });
}

const isPreflight = (req: FastifyRequest) => !!req.headers.origin && !!req.headers['access-control-request-method'];

/**
 * Only this policy speaks CORS: headers an inner handler set (graphql-yoga in the gateway echoes
 * every origin with credentials) are dropped first. Allowed origins get their own origin back, never
 * `*`, and no Allow-Credentials: the API authenticates with a bearer header, not cookies.
 */
function applyCors(req: FastifyRequest, reply: FastifyReply, allowedOrigins: Set<string>) {
  for (const name of Object.keys(reply.getHeaders())) {
    if (name.toLowerCase().startsWith('access-control-')) reply.removeHeader(name);
  }
  const origin = req.headers.origin;
  if (!origin) return;
  addVary(reply, 'Origin');
  if (!allowedOrigins.has(origin)) return;
  reply.header('access-control-allow-origin', origin);
  if (req.method === 'OPTIONS' && isPreflight(req)) {
    reply.header('access-control-allow-methods', CORS_METHODS.join(', '));
    reply.header('access-control-allow-headers', CORS_HEADERS.join(', '));
    reply.header('access-control-max-age', String(CORS_MAX_AGE_SECONDS));
  }
}

function addVary(reply: FastifyReply, field: string) {
  const current = String(reply.getHeader('vary') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!current.some((f) => f.toLowerCase() === field.toLowerCase() || f === '*')) reply.header('vary', [...current, field].join(', '));
}

const unique = (items: string[]) => [...new Set(items)];
