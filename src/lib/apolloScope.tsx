import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ApolloClient } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { ChunkLoadError } from './lazy';
import { Loading } from '../common/Loading';

/** What ApolloScope reads of the gateway (src/lib/gateway.tsx's Gateway). */
interface ClientSource {
  subscribe(listener: () => void): () => void;
  current(): ApolloClient | null;
  load(): Promise<unknown>;
}

/**
 * Apollo's provider for the screens that use its hooks, once the gateway has loaded the client
 * (src/lib/gateway.tsx). It waits by watching the gateway rather than suspending on its promise:
 * `use()` of a promise that is new to a fresh React root stayed suspended after it resolved
 * (a second root in the same page, as the model tests make, showed 'Loading…' for good).
 * The gateway is handed in by lazyWithApollo, so this chunk does not import gateway.tsx back.
 */
export default function ApolloScope({ gateway, children }: { gateway: ClientSource; children: ReactNode }) {
  const client = useSyncExternalStore(gateway.subscribe, gateway.current);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    if (!client && !failed) gateway.load().catch(setFailed);
  }, [gateway, client, failed]);
  // Apollo's own file did not load (offline): the route's boundary shows it with Retry.
  if (failed) throw new ChunkLoadError(failed, () => setFailed(null));
  if (!client) return <Loading />;
  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
