import { GraphQLError } from 'graphql';
import { fetch as upstreamFetch, Response } from '@whatwg-node/fetch';

/**
 * The gateway's fetch to the REST services. It unwraps the ABP envelope, so GraphQL fields
 * return `result`, and turns `success:false` and HTTP errors into GraphQL errors whose extensions
 * carry only the HTTP status and the ABP message and validation errors: no upstream URL or headers.
 */
export default async function abpFetch(url: string, init?: RequestInit, context?: GatewayContext): Promise<Response> {
  let res: Response;
  try {
    res = inProcess && url.startsWith(IN_PROCESS_ORIGIN) ? await injectFetch(url, init, context) : await upstreamFetch(url, withClientAddress(init, context) as never);
  } catch {
    throw apiError(502, 'The service is not reachable. Please try again.', null);
  }
  const text = await res.text();
  let body: AbpEnvelope | null = null;
  try {
    body = text ? (JSON.parse(text) as AbpEnvelope) : null;
  } catch {
    body = null;
  }
  if (res.ok && body?.success !== false && body && '__abp' in body) {
    return new Response(JSON.stringify(body.result ?? null), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  const status = res.ok ? 400 : res.status;
  throw apiError(status, body?.error?.message ?? res.statusText ?? 'Request failed', body?.error ?? null);
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
async function injectFetch(url: string, init?: RequestInit, context?: GatewayContext): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init?.headers as never).forEach((v, k) => { if (v !== '') headers[k] = v; });
  const res = await inProcess!({
    method: init?.method ?? 'GET',
    url: url.slice(IN_PROCESS_ORIGIN.length),
    headers,
    payload: typeof init?.body === 'string' ? init.body : undefined,
    ...(context?.req?.ip ? { remoteAddress: context.req.ip } : {}),
  });
  return new Response(res.body, { status: res.statusCode, statusText: res.statusMessage });
}

interface AbpEnvelope {
  result: unknown;
  success: boolean;
  error: { message: string; details: string | null; validationErrors: { message: string; members: string[] }[] | null } | null;
  unAuthorizedRequest: boolean;
  __abp?: boolean;
}

function apiError(status: number, message: string, error: AbpEnvelope['error']) {
  return new GraphQLError(message, {
    extensions: {
      code: codeOf(status),
      status,
      abp: { message: error?.message ?? message, details: error?.details ?? null, validationErrors: error?.validationErrors ?? null },
    },
  });
}

const codeOf = (status: number) =>
  status === 400 ? 'BAD_REQUEST' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN'
  : status === 404 ? 'NOT_FOUND' : status === 409 ? 'CONFLICT' : status === 422 ? 'UNPROCESSABLE' : status === 429 ? 'TOO_MANY_REQUESTS' : 'UPSTREAM_ERROR';
export { abpFetch as fetch };
