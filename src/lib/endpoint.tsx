import { createContext, useContext, useMemo } from 'react';
import { useSessionRef } from './session';
import type { LiveTransport } from './liveSubscription';

/** The gateway's GraphQL endpoint, for the requests that do not go through Apollo (live subscriptions' streams). */
export const GraphqlEndpoint = createContext('/graphql');
export const useGraphqlEndpoint = () => useContext(GraphqlEndpoint);

/**
 * Where live subscriptions go, and what a 401 on one does: the session machine's
 * `auth.unauthorized`, the very event the Apollo error link's 401 sends (src/Root.tsx), so the
 * session ends and the user is sent to sign in once. The subscription client itself (graphql-sse)
 * is loaded only by the pages that follow something live (src/lib/liveSubscription.ts).
 */
export function useLiveTransport(): LiveTransport {
  const uri = useGraphqlEndpoint();
  const session = useSessionRef();
  return useMemo(() => ({ uri, onUnauthorized: () => session.send({ type: 'auth.unauthorized' }) }), [uri, session]);
}

/**
 * `subscribeLive`, with graphql-sse fetched on first use: a shop page that follows an order loads
 * it then, as its own chunk, so no other page of the shop carries it.
 */
export function subscribeLiveOnDemand<TData, TVariables extends Record<string, unknown>>(
  ...args: Parameters<typeof import('./liveSubscription').subscribeLive<TData, TVariables>>
): () => void {
  let stop: (() => void) | null = null;
  let cancelled = false;
  import('./liveSubscription')
    .then((m) => { if (!cancelled) stop = m.subscribeLive(...args); })
    .catch((e: unknown) => { if (!cancelled) args[3].dropped(e instanceof Error ? e.message : String(e)); });
  return () => { cancelled = true; stop?.(); };
}
