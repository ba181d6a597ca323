/**
 * The ABP envelope, defined once: what the REST services answer (server/http/envelope.ts writes
 * it, and declares the same shape in TypeBox for the OpenAPI document), what the gateway reads
 * and turns into GraphQL errors (mesh/fetch.ts, mesh/subscriptions.ts), and what the browser
 * reads from those errors (src/lib/errors.ts).
 */

/** One invalid field: its message and the members (field names) it is about. */
export interface AbpValidationError { message: string; members: string[] }

/** The envelope's error, as the clients read it. */
export interface AbpError {
  message: string;
  details: string | null;
  validationErrors: AbpValidationError[] | null;
}

/** `{ result, success, error: { message, details, validationErrors }, unAuthorizedRequest }` (SPEC.md, ARCHITECTURE.md). */
export interface AbpEnvelope<T = unknown> {
  result: T | null;
  success: boolean;
  error: (AbpError & { code: number }) | null;
  unAuthorizedRequest: boolean;
  targetUrl: string | null;
  __abp: true;
}

/** A success answer. The key order is the one the server's schema serialises (mesh/fetch.ts reads it). */
export const okEnvelope = <T>(result: T): AbpEnvelope<T> =>
  ({ result, success: true, error: null, unAuthorizedRequest: false, targetUrl: null, __abp: true });

/** A refusal with this HTTP status. */
export const failEnvelope = (status: number, error: AbpError): AbpEnvelope<null> => ({
  result: null,
  success: false,
  error: { code: 0, message: error.message, details: error.details, validationErrors: error.validationErrors },
  unAuthorizedRequest: status === 401,
  targetUrl: null,
  __abp: true,
});

/** What the gateway puts in a GraphQL error's extensions: the HTTP status, a code, and the envelope's error. */
export interface ApiErrorExtensions {
  code?: string;
  status?: number;
  abp?: AbpError;
}

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT',
  422: 'UNPROCESSABLE', 429: 'TOO_MANY_REQUESTS', 503: 'UNAVAILABLE',
};

/**
 * The extensions of a GraphQL error for an HTTP refusal. `otherwise` is the code of a status
 * with none of its own (the REST fetch: 'UPSTREAM_ERROR'; the live feed: 'INTERNAL_SERVER_ERROR').
 */
export function errorExtensions(status: number, message: string, error: Partial<AbpError> | null, otherwise: string): Required<ApiErrorExtensions> {
  return {
    code: CODES[status] ?? otherwise,
    status,
    abp: { message: error?.message ?? message, details: error?.details ?? null, validationErrors: error?.validationErrors ?? null },
  };
}
