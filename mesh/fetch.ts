import { GraphQLError } from 'graphql';
import { fetch as upstreamFetch, Response } from '@whatwg-node/fetch';
import { errorExtensions, okEnvelope, type AbpEnvelope } from '../domain/errorEnvelope';

/**
 * The gateway's fetch to the REST services. It unwraps the ABP envelope, so GraphQL fields
 * return `result`, and turns `success:false` and HTTP errors into GraphQL errors whose extensions
 * carry only the HTTP status and the ABP message and validation errors: no upstream URL or headers.
 */
export default async function abpFetch(url: string, init?: RequestInit, context?: GatewayContext): Promise<Response> {
  let status: number;
  let statusText: string;
  let text: string;
  try {
    if (inProcess && url.startsWith(IN_PROCESS_ORIGIN)) {
      const res = await injectFetch(url, init, context);
      // A success answer of the REST services (server/http/routes.ts) is the envelope with `result`
      // first and a fixed tail: its result is cut out as text, not parsed here and written again
      // (transport-rest parses it once). Anything else is read in full below.
      if (res.statusCode === 200) {
        const result = successResult(res.body);
        if (result !== null) return new ResultAnswer(result) as unknown as Response;
      }
      ({ statusCode: status, statusMessage: statusText, body: text } = res);
    } else {
      const res = await upstreamFetch(url, withClientAddress(init, context) as never);
      ({ status, statusText } = res);
      text = await res.text();
    }
  } catch {
    throw apiError(502, 'The service is not reachable. Please try again.', null);
  }
  let body: AbpEnvelope | null = null;
  try {
    body = text ? (JSON.parse(text) as AbpEnvelope) : null;
  } catch {
    body = null;
  }
  const ok = status >= 200 && status < 300;
  if (ok && body?.success !== false && body && '__abp' in body) return new ResultAnswer(JSON.stringify(body.result ?? null)) as unknown as Response;
  throw apiError(ok ? 400 : status, body?.error?.message ?? statusText ?? 'Request failed', body?.error ?? null);
}

/**
 * How the REST services write a success envelope (domain/errorEnvelope.ts): fast-json-stringify
 * keeps the schema's key order (server/http/envelope.ts), which is the order okEnvelope writes.
 */
const [SUCCESS_HEAD, SUCCESS_TAIL] = JSON.stringify(okEnvelope('\u0000')).split('"\\u0000"');

/** The `result` of a success envelope as JSON text, or null when the text is not one in that exact form. */
export function successResult(text: string): string | null {
  if (!text.startsWith(SUCCESS_HEAD) || !text.endsWith(SUCCESS_TAIL) || text.length <= SUCCESS_HEAD.length + SUCCESS_TAIL.length) return null;
  return text.slice(SUCCESS_HEAD.length, text.length - SUCCESS_TAIL.length);
}

/**
 * The unwrapped answer handed to transport-rest: it reads status, text() (and headers when
 * debugging), so a Response with a body stream is built only if something asks for more.
 */
class ResultAnswer {
  readonly status = 200;
  readonly statusText = 'OK';
  readonly ok = true;
  readonly redirected = false;
  readonly type = 'basic';
  readonly url = '';
  readonly bodyUsed = false;
  constructor(private readonly body: string) {}
  get headers() { return new Headers({ 'content-type': 'application/json' }); }
  async text() { return this.body; }
  async json() { return JSON.parse(this.body) as unknown; }
  async blob() { return this.response().blob(); }
  async arrayBuffer() { return this.response().arrayBuffer(); }
  clone() { return new ResultAnswer(this.body); }
  private response() { return new Response(this.body, { status: 200, headers: { 'content-type': 'application/json' } }); }
}

/** The upstream origin that means "this process": requests go to Fastify's inject, not the network. */
export const IN_PROCESS_ORIGIN = 'http://rest.in-process';

/** The gateway's context: the Fastify request of the /graphql call in-process (mesh/inProcess.ts), Node's request standalone. */
type GatewayContext = { req?: { ip?: string; socket?: { remoteAddress?: string } } };

/**
 * The standalone gateway (mesh/standalone.ts) reaches REST over HTTP: it names its caller in
 * X-Forwarded-For, replacing whatever the caller sent, and the REST replicas behind it run with
 * TRUST_PROXY=1 (and are reachable only through it), so the limits count the real client.
 */
function withClientAddress(init: RequestInit | undefined, context?: GatewayContext): RequestInit | undefined {
  const address = context?.req?.ip ?? context?.req?.socket?.remoteAddress;
  if (!address) return init;
  const headers = new Headers(init?.headers as never);
  headers.set('x-forwarded-for', address);
  return { ...init, headers };
}

type Inject = (req: { method: string; url: string; headers: Record<string, string>; payload?: string; remoteAddress?: string }) =>
  Promise<{ statusCode: number; statusMessage: string; body: string; headers: Record<string, unknown> }>;
let inProcess: Inject | null = null;
export const setInProcessUpstream = (inject: Inject | null) => { inProcess = inject; };

/**
 * The REST call carries the GraphQL caller's own address as its remote address, so the login and
 * SMS limits count the real client, not 127.0.0.1. It is not a header: a caller cannot choose it.
 */
async function injectFetch(url: string, init?: RequestInit, context?: GatewayContext) {
  // transport-rest passes its headers as a plain object with lower-case names; a header whose
  // interpolation found nothing (no Authorization on the GraphQL call) is left out.
  const headers: Record<string, string> = {};
  const given = init?.headers;
  if (given && !(given instanceof Headers) && !Array.isArray(given)) {
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
      const value = v == null ? '' : String(v).trim();
      if (value !== '') headers[k.toLowerCase()] = value;
    }
  } else {
    new Headers(given as never).forEach((v, k) => { if (v !== '') headers[k] = v; });
  }
  return inProcess!({
    method: init?.method ?? 'GET',
    url: url.slice(IN_PROCESS_ORIGIN.length),
    headers,
    payload: typeof init?.body === 'string' ? init.body : undefined,
    ...(context?.req?.ip ? { remoteAddress: context.req.ip } : {}),
  });
}

function apiError(status: number, message: string, error: AbpEnvelope['error']) {
  return new GraphQLError(message, { extensions: errorExtensions(status, message, error, 'UPSTREAM_ERROR') });
}

export { abpFetch as fetch };
