import { TEXT } from '../../domain/constants';

import type { ApiErrorExtensions } from '../../domain/errorEnvelope';

export type { ApiErrorExtensions };

export function apiErrorOf(error: unknown): ApiErrorExtensions | null {
  // Apollo's CombinedGraphQLErrors and the gateway's GatewayError (src/lib/gateway.tsx) both carry `errors`;
  // read by shape so the first screen's code does not load Apollo to read an error.
  const errors = (error as { errors?: { extensions?: ApiErrorExtensions }[] } | null)?.errors;
  if (Array.isArray(errors)) return errors[0]?.extensions ?? null;
  const ext = (error as { graphQLErrors?: { extensions?: ApiErrorExtensions }[] })?.graphQLErrors?.[0]?.extensions;
  return ext ?? null;
}

export const statusOf = (error: unknown) => apiErrorOf(error)?.status ?? null;

/**
 * SPEC.md section 8's order: the server's validation details if there are validation errors;
 * else the server's error message; else the client's message; else the generic text.
 */
export function errorMessage(error: unknown, clientMessage?: string): string {
  const abp = apiErrorOf(error)?.abp;
  if (abp?.validationErrors?.length) return abp.details || abp.validationErrors.map((v) => v.message).join('\n');
  if (abp?.message) return abp.message;
  if (clientMessage) return clientMessage;
  return TEXT.genericError;
}
