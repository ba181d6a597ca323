import { print } from 'graphql';
import { createClient, NetworkError } from 'graphql-sse';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { storage, KEYS } from './storage';

/**
 * Where live subscriptions go, and what ends the session: the same `onUnauthorized` the Apollo
 * error link calls (src/Root.tsx), so a 401 from a stream is handled exactly like one from a query.
 */
export interface LiveTransport {
  /** The gateway's GraphQL endpoint (the app's /graphql). */
  uri: string;
  onUnauthorized: () => void;
}

/** What one subscription tells its owner. After `refused` or `dropped` it is over; the owner decides whether to try again. */
export interface LiveHandlers<TData> {
  /** The server has subscribed us (it answers only then), so from here on nothing is missed. */
  connected(): void;
  next(data: TData): void;
  /** The server will not let this caller listen (401, 403 or 404). A 401 has already ended the session. */
  refused(reason: string, status: number): void;
  /** The stream failed or ended: the network, the server going away, or the server closing it. */
  dropped(reason: string): void;
}

interface ErrorLike { message: string; extensions?: { status?: unknown } }
const REFUSALS = new Set([401, 403, 404]);

/**
 * One GraphQL subscription over SSE with graphql-sse, in its distinct-connections mode (one POST
 * with `Accept: text/event-stream` per subscription, which GraphQL Yoga inside the Mesh gateway
 * speaks as it is). The client's own retries are off: the owner (the live order feed machine, the
 * order tracker) knows when to try again and what to catch up on. The bearer token is read per
 * connection; fetch is looked up per connection too, so a test can stand between.
 *
 * The one place a live stream's 401 is handled: the session ends (`onUnauthorized`) and the owner
 * hears `refused`, so it stops instead of retrying.
 */
export function subscribeLive<TData, TVariables extends Record<string, unknown>>(
  transport: LiveTransport,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  handlers: LiveHandlers<TData>,
): () => void {
  let over = false;
  const client = createClient({
    url: transport.uri,
    retryAttempts: 0,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init),
    headers: () => {
      const token = storage.get(KEYS.token);
      return token ? { authorization: `Bearer ${token}` } : ({} as Record<string, string>);
    },
  });
  const end = (report: () => void) => {
    if (over) return;
    over = true;
    dispose();
    client.dispose();
    report();
  };
  const refuse = (status: number, reason: string) => end(() => {
    if (status === 401) transport.onUnauthorized();
    handlers.refused(reason, status);
  });
  const dispose = client.subscribe<TData>({ query: print(document), variables }, {
    next(result) {
      if (over) return;
      const error = result.errors?.[0] as ErrorLike | undefined;
      if (error) {
        const status = Number(error.extensions?.status);
        return REFUSALS.has(status) ? refuse(status, error.message) : end(() => handlers.dropped(error.message));
      }
      if (result.data) handlers.next(result.data);
    },
    error(err) {
      const status = err instanceof NetworkError ? (err.response as { status?: number } | undefined)?.status : undefined;
      if (status && REFUSALS.has(status)) return refuse(status, err instanceof Error ? err.message : String(err));
      end(() => handlers.dropped(err instanceof Error ? err.message : String(err)));
    },
    complete() {
      end(() => handlers.dropped('The server closed the live feed.'));
    },
  }, {
    connected() { if (!over) handlers.connected(); },
  });
  return () => {
    over = true;
    dispose();
    client.dispose();
  };
}
