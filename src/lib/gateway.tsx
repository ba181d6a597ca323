import { createContext, createElement, startTransition, Suspense, useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { print, type DocumentNode, type FieldNode, type SelectionSetNode } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ApolloClient, OperationVariables, WatchQueryFetchPolicy } from '@apollo/client';
import { errorMessage, statusOf } from './errors';
import { lazyChunk, retryableImport } from './lazy';
import { notifyError } from './notify';
import { storage, KEYS } from './storage';

/**
 * The app's way to the gateway (/graphql), with Apollo Client loaded after the shop's first screen
 * (issue 12's first-load budget: Apollo and the rxjs it needs are ~60 KB gzip, half the budget).
 *
 * - Until Apollo is here, the first screen's reads (the brands, the menu, a product, the news, the busy
 *   mode) go to the same gateway as one plain POST each, the very operation Apollo would send (its
 *   `__typename`s included). Their answers are written into Apollo's cache when it arrives, so nothing
 *   is fetched twice, and from then on the same hooks watch Apollo's cache (polling, refetches, updates).
 * - Every other screen is a lazy chunk that waits for Apollo (`lazyWithApollo`) and uses Apollo as before.
 * - Apollo is loaded once the first screen has rendered and the browser is idle, or at once when a
 *   screen or a mutation needs it (the header's bell waits: lazyAfterApollo).
 * The plain POST keeps the Apollo link's rules (src/lib/apollo.ts): bearer token, the document's language,
 * a 401 ends the session, other failures notify unless `silent`.
 */
export interface GatewayContext { silent?: boolean; token?: string; headers?: Record<string, string> }

/** A GraphQL error answer, shaped as Apollo's CombinedGraphQLErrors (what src/lib/errors.ts reads). */
export class GatewayError extends Error {
  constructor(readonly errors: { message: string; extensions?: Record<string, unknown> }[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'GatewayError';
  }
}

const TYPENAME: FieldNode = { kind: 'Field' as FieldNode['kind'], name: { kind: 'Name' as FieldNode['name']['kind'], value: '__typename' } };

/** The document as Apollo's cache sends it: `__typename` in every selection set but the operation's own. */
function withTypenames(doc: DocumentNode): DocumentNode {
  const add = (set: SelectionSetNode | undefined, root: boolean): SelectionSetNode | undefined => {
    if (!set) return set;
    const selections = set.selections.map((s) => ('selectionSet' in s && s.selectionSet ? { ...s, selectionSet: add(s.selectionSet, false) } : s));
    const has = selections.some((s) => s.kind === 'Field' && s.name.value.startsWith('__'));
    return { ...set, selections: root || has ? selections : [...selections, TYPENAME] } as SelectionSetNode;
  };
  return { ...doc, definitions: doc.definitions.map((d) => ('selectionSet' in d ? { ...d, selectionSet: add(d.selectionSet, d.kind === 'OperationDefinition') } : d)) } as DocumentNode;
}

const operationName = (doc: DocumentNode) => doc.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value;
const keyOf = (doc: DocumentNode, variables: unknown) => `${operationName(doc)}:${JSON.stringify(variables ?? {})}`;

type Seed = { query: DocumentNode; variables: unknown; data: unknown; at: number };
/** An answer that came before Apollo counts as fresh this long: it served the first screen, not the next visit. */
const SEED_FRESH_MS = 30_000;

// Apollo's file, tried again after a failed load (offline) by the next screen that needs it or by Retry.
const importApollo = retryableImport(() => import('./apollo'));

export class Gateway {
  private client: ApolloClient | null = null;
  private loading: Promise<ApolloClient> | null = null;
  private readonly reads = new Map<string, Promise<unknown>>();
  private readonly seeds = new Map<string, Seed>();
  private readonly listeners = new Set<() => void>();
  private unauthorized = () => {};
  private lastRead = 0;

  constructor(readonly uri = '/graphql') {}

  /** The function a 401 calls (the session machine binds it). */
  onUnauthorized(fn: () => void) { this.unauthorized = fn; }

  subscribe = (listener: () => void) => { this.listeners.add(listener); return () => { this.listeners.delete(listener); }; };
  /** Apollo's client once it is loaded, else null. */
  current = () => this.client;

  /** Loads Apollo (once); the first screen's answers are in its cache when it resolves. */
  load(): Promise<ApolloClient> {
    if (this.loading) return this.loading;
    // Each step is its own task (yieldToMain), so loading Apollo on a phone is no long task (issue 12, TBT).
    this.loading = importApollo().then(async ({ createApolloClient }) => {
      await yieldToMain();
      const client = createApolloClient({ uri: this.uri, onUnauthorized: () => this.unauthorized() });
      // A read still on its way is waited for, so Apollo never asks the same again.
      await Promise.allSettled([...this.reads.values()]);
      for (const { query, variables, data } of this.seeds.values()) {
        await yieldToMain();
        client.writeQuery({ query, variables: variables as OperationVariables, data });
      }
      await yieldToMain();
      this.client = client;
      this.listeners.forEach((l) => l());
      return client;
    });
    // A failed load (offline) is tried again by the next screen that needs Apollo.
    this.loading.catch(() => { this.loading = null; });
    return this.loading;
  }

  /** The first screen has read what it shows: a read came back, and none has been on its way for `ms`. */
  quietFor(ms: number) { return this.lastRead > 0 && this.reads.size === 0 && Date.now() - this.lastRead >= ms; }

  /** Whether this read's answer came before Apollo and is in its cache. */
  seeded(doc: DocumentNode, variables: unknown) {
    const seed = this.seeds.get(keyOf(doc, variables));
    return !!seed && Date.now() - seed.at < SEED_FRESH_MS;
  }

  /** One query: through Apollo when it is here, else one plain POST whose answer Apollo's cache receives later. */
  async query<TData, TVars>(doc: TypedDocumentNode<TData, TVars>, variables: TVars, context: GatewayContext = {},
    fetchPolicy: 'cache-first' | 'network-only' = 'cache-first'): Promise<TData> {
    if (this.client) {
      const res = await this.client.query({ query: doc, variables: variables as OperationVariables, context, fetchPolicy });
      return res.data as TData;
    }
    const key = keyOf(doc, variables);
    let read = this.reads.get(key) as Promise<TData> | undefined;
    if (!read) {
      read = this.post<TData>(doc, variables, context).then((data) => {
        if (!this.client) this.seeds.set(key, { query: doc, variables, data, at: Date.now() });
        return data;
      }).finally(() => { this.reads.delete(key); this.lastRead = Date.now(); });
      this.reads.set(key, read);
    }
    return read;
  }

  /**
   * A mutation that saves nothing and whose answer no screen watches (checkout's price quote,
   * Store/QuoteOrder): one plain POST until Apollo is here, so a first screen that asks it need not
   * wait for Apollo; through Apollo after. Never remembered for Apollo's cache (not a seed).
   */
  async ask<TData, TVars>(doc: TypedDocumentNode<TData, TVars>, variables: TVars, context: GatewayContext = {}): Promise<TData> {
    if (this.client) return this.mutate(doc, variables, context);
    return this.post<TData>(doc, variables, context);
  }

  /** A mutation always goes through Apollo, so its answer updates the cache every screen watches. */
  async mutate<TData, TVars>(doc: TypedDocumentNode<TData, TVars>, variables: TVars, context: GatewayContext = {}): Promise<TData> {
    const client = await this.load();
    const res = await client.mutate({ mutation: doc, variables: variables as OperationVariables, context });
    return res.data as TData;
  }

  /** Forgets every answer (sign-out). */
  clear() {
    this.seeds.clear();
    void this.client?.clearStore();
  }

  private async post<TData>(doc: DocumentNode, variables: unknown, context: GatewayContext): Promise<TData> {
    const token = context.token ?? storage.get(KEYS.token);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json,application/json;q=0.9',
      'accept-language': document.documentElement.lang || 'en',
    };
    if (token) headers.authorization = `Bearer ${token}`;
    Object.assign(headers, context.headers);
    try {
      const res = await fetch(this.uri, {
        method: 'POST', headers,
        body: JSON.stringify({ operationName: operationName(doc), variables: variables ?? {}, query: print(withTypenames(doc)) }),
      });
      const body = await res.json().catch(() => { throw new Error(`The gateway answered ${res.status}`); }) as { data?: TData; errors?: GatewayError['errors'] };
      if (body.errors?.length) throw new GatewayError(body.errors);
      if (!res.ok || !body.data) throw new Error(`The gateway answered ${res.status}`);
      return body.data;
    } catch (error) {
      if (statusOf(error) === 401) this.unauthorized();
      else if (!context.silent) notifyError(errorMessage(error));
      throw error;
    }
  }
}

/** Lets the browser run what waits (input, paint) before the next step: a new task, not a microtask. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Apollo's client once the gateway has it. The switch re-renders every first-screen query as a
 * transition, in slices, rather than as one synchronous render (useSyncExternalStore's) with their
 * effects in the same task.
 */
function useGatewayClient(gateway: Gateway): ApolloClient | null {
  const [client, setClient] = useState(gateway.current);
  useEffect(() => {
    const update = () => startTransition(() => setClient(gateway.current()));
    const unsubscribe = gateway.subscribe(update);
    update(); // loaded between this render and the subscription
    return unsubscribe;
  }, [gateway]);
  return client;
}

const GatewayCtx = createContext<Gateway | null>(null);
export const GatewayProvider = GatewayCtx.Provider;

export function useGateway(): Gateway {
  const gateway = useContext(GatewayCtx);
  if (!gateway) throw new Error('useGateway outside GatewayProvider');
  return gateway;
}

/** How long the first screen's reads must have been quiet before Apollo is loaded. */
const QUIET_MS = 1500;

/**
 * Loads Apollo once the first screen has rendered: the page has loaded, no first-screen read has been
 * on its way for QUIET_MS, and the browser is idle. A tap or a key press loads it at once: the
 * customer is about to go where it is needed.
 */
export function useApolloAfterFirstScreen() {
  const gateway = useGateway();
  useEffect(() => {
    let idle = 0;
    const now = () => { void gateway.load().catch(() => {}); stop(); };
    const check = window.setInterval(() => {
      if (document.readyState !== 'complete' || !gateway.quietFor(QUIET_MS)) return;
      window.clearInterval(check);
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(now, { timeout: 2000 }) : window.setTimeout(now, 0);
    }, 250);
    const stop = () => {
      window.clearInterval(check);
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle); else window.clearTimeout(idle);
      window.removeEventListener('pointerdown', now);
      window.removeEventListener('keydown', now);
    };
    window.addEventListener('pointerdown', now, { once: true });
    window.addEventListener('keydown', now, { once: true });
    return stop;
  }, [gateway]);
}

export interface GatewayQueryOptions<TVars> {
  variables: TVars;
  skip?: boolean;
  pollInterval?: number;
  fetchPolicy?: WatchQueryFetchPolicy;
  context?: GatewayContext;
}
export interface GatewayQueryResult<TData> { data: TData | undefined; loading: boolean; error: unknown }

/**
 * A query for the shop's first screen: the plain POST before Apollo is loaded, Apollo's watched
 * query (cache, polling, refetches) after. Reads as Apollo's useQuery does for what the screens use.
 */
export function useGatewayQuery<TData, TVars>(doc: TypedDocumentNode<TData, TVars>, options: GatewayQueryOptions<TVars>): GatewayQueryResult<TData> {
  const gateway = useGateway();
  const client = useGatewayClient(gateway);
  const { skip = false, pollInterval, fetchPolicy, context } = options;
  const key = keyOf(doc, options.variables);
  const [state, setState] = useState<GatewayQueryResult<TData> & { key: string }>({ key, data: undefined, loading: !skip, error: undefined });
  const variables = options.variables;
  const silent = context?.silent;
  useEffect(() => {
    if (skip) return;
    let live = true;
    // An answer is rendered as a transition: in slices that yield to the browser (a long list is no long task).
    const set = (next: GatewayQueryResult<TData>) => { if (live) startTransition(() => setState({ key, ...next })); };
    const seeded = !!client && gateway.seeded(doc, variables);
    // The answer shown stays as it is while it moves to Apollo's cache (seeded): nothing is asked again.
    setState((s) => (s.key === key ? (s.loading || (seeded && s.data !== undefined) ? s : { ...s, loading: true }) : { key, data: undefined, loading: true, error: undefined }));
    if (!client) {
      gateway.query(doc, variables, { silent }).then((data) => set({ data, loading: false, error: undefined }), (error) => set({ data: undefined, loading: false, error }));
      return () => { live = false; };
    }
    const wanted = fetchPolicy ?? 'cache-and-network';
    let subscription: { unsubscribe(): void } | undefined;
    const watch = () => {
      const observable = client.watchQuery({
        query: doc, variables: variables as OperationVariables, pollInterval, context: { silent },
        // What came before Apollo is read from its cache, not asked again; later reads follow the screen's policy.
        fetchPolicy: seeded ? 'cache-first' : wanted,
        nextFetchPolicy: wanted,
      });
      subscription = observable.subscribe({
        next: (r) => set({ data: (r.data as TData | undefined) ?? undefined, loading: r.loading, error: r.error }),
        error: (error) => set({ data: undefined, loading: false, error }),
      });
    };
    // A screen that showed its answer before Apollo moves to Apollo's cache one query per task, so the
    // switch is no long task on a phone; the answer it shows meanwhile is the same.
    const timer = seeded ? window.setTimeout(watch, 0) : 0;
    if (!seeded) watch();
    return () => { live = false; window.clearTimeout(timer); subscription?.unsubscribe(); };
  }, [gateway, client, key, skip, pollInterval, fetchPolicy, silent]); // eslint-disable-line react-hooks/exhaustive-deps
  if (skip) return { data: undefined, loading: false, error: undefined };
  return state.key === key ? state : { data: undefined, loading: true, error: undefined };
}

const ApolloScope = lazyChunk(() => import('./apolloScope'));

/**
 * An Apollo screen that is no part of the first screen (the header's inbox bell): `placeholder` (the
 * same size, so nothing moves) until Apollo is loaded by whatever needs it or after the first screen
 * (useApolloAfterFirstScreen), then the screen. It never loads Apollo itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyAfterApollo(load: () => Promise<{ default: ComponentType<any> }>, placeholder: ReactNode): ComponentType<any> {
  const Screen = lazyWithApollo(load);
  return function AfterApollo(props: object) {
    const client = useGatewayClient(useGateway());
    return client ? createElement(Suspense, { fallback: placeholder }, createElement(Screen, props)) : placeholder;
  };
}

/**
 * A lazy screen that uses Apollo's React hooks: under Apollo's provider (its own chunk, once the client
 * is loaded), then the screen's chunk. Only these screens carry Apollo's React bindings, never the first screen.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWithApollo(load: () => Promise<{ default: ComponentType<any> }>): ComponentType<any> {
  const Screen = lazyChunk(load);
  return function WithApollo(props: object) {
    // The screen's chunk and Apollo come down together rather than one after the other (in render:
    // a suspended tree runs no effects; both imports are the browser's to dedupe).
    const gateway = useGateway();
    gateway.load().catch(() => {});
    load().catch(() => {});
    return createElement(ApolloScope, { gateway }, createElement(Screen, props));
  };
}
