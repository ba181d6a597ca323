import { fromCallback, fromPromise } from 'xstate';
import type { ApolloClient } from '@apollo/client';
import { liveOrderFeedMachine, type CatchUpResult, type FeedScope, type LiveOrderFeedEvent, type LiveOrderFeedInput } from '../../../../machines/liveOrderFeed';
import { TEXT, TIMINGS } from '../../../../domain/constants';
import { notify } from '../../../lib/notify';
import type { LiveTransport } from '../../../lib/liveSubscription';
import { AllOrders } from '../operations';
import { gatewayFeed } from './gatewayFeed';
import { playAlertSound } from './alertSound';
import type { FirestoreFeedConfig } from './firestoreFeed';

/** Firebase settings of the web app, when the Firestore feed is configured (VITE_FIREBASE_PROJECT_ID). */
export function firestoreFeedConfig(): FirestoreFeedConfig | null {
  const env = import.meta.env;
  const projectId = (env.VITE_FIREBASE_PROJECT_ID as string | undefined)?.trim();
  if (!projectId) return null;
  return {
    projectId,
    apiKey: env.VITE_FIREBASE_API_KEY as string | undefined,
    appId: env.VITE_FIREBASE_APP_ID as string | undefined,
    emulatorHost: env.VITE_FIRESTORE_EMULATOR_HOST as string | undefined,
  };
}

/** Port `subscribe` over Firestore; the adapter (and the firebase SDK) load on first use, as their own chunk. */
function firestoreFeed(config: FirestoreFeedConfig) {
  return fromCallback<LiveOrderFeedEvent, FeedScope>(({ input, sendBack }) => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    import('./firestoreFeed')
      .then((m) => { if (!cancelled) stop = m.listenToBranchOrders(config, input.branchId!, sendBack); })
      .catch((e: unknown) => sendBack({ type: 'feed.dropped', reason: e instanceof Error ? e.message : String(e) }));
    return () => { cancelled = true; stop?.(); };
  });
}

const CATCH_UP_PAGE = 100;
const CATCH_UP_MAX_PAGES = 20;

/** Port `catchUp`: orders created after `afterId` in the caller's scope (of the branch), oldest first. */
export async function catchUpOrders(client: ApolloClient, afterId: number | null, scope: FeedScope): Promise<CatchUpResult> {
  const base = { skip: 0, includeCounts: false, branchId: scope.branchId ?? undefined };
  const fetchPage = (variables: Parameters<typeof client.query<unknown, Record<string, unknown>>>[0]['variables']) =>
    client.query({ query: AllOrders, variables: variables as never, fetchPolicy: 'no-cache', context: { silent: true } });
  if (afterId === null) {
    // Where the feed starts: the newest order there is (0 when there is none yet).
    const res = await fetchPage({ ...base, take: 1, sorting: 'id desc' });
    return { orderIds: [], latestId: res.data?.list?.data[0]?.id ?? 0 };
  }
  const orderIds: number[] = [];
  let after = afterId;
  for (let page = 0; page < CATCH_UP_MAX_PAGES; page++) {
    const res = await fetchPage({ ...base, take: CATCH_UP_PAGE, sorting: 'id asc', createdAfterId: after });
    const rows = (res.data?.list?.data ?? []).map((o) => o!);
    // An order for later not fired yet is not new to the kitchen: it is announced when it fires.
    orderIds.push(...rows.filter((o) => o.status !== 'scheduled').map((o) => o.id));
    if (rows.length) after = rows[rows.length - 1].id;
    if (rows.length < CATCH_UP_PAGE) break;
  }
  return { orderIds, latestId: after };
}

/** Port `stillWaiting`: of the announced orders, those still pending and unread (nobody opened or accepted them). */
export async function stillWaitingOrders(client: ApolloClient, orderIds: number[], scope: FeedScope): Promise<number[]> {
  if (!orderIds.length) return [];
  const wanted = new Set(orderIds);
  const res = await client.query({
    query: AllOrders,
    variables: { skip: 0, take: 100, includeCounts: false, sorting: 'id asc', status: 'pending', createdAfterId: Math.min(...orderIds) - 1, branchId: scope.branchId ?? undefined },
    fetchPolicy: 'no-cache',
    context: { silent: true },
  });
  return (res.data?.list?.data ?? []).filter((o) => !!o && wanted.has(o.id) && !o.isViewed).map((o) => o!.id);
}

/** Which transport a scope gets: Firestore only for one branch with Firebase configured. */
const usesFirestore = (scope: FeedScope, firestore?: FirestoreFeedConfig | null) => !!firestore && scope.branchId != null;

/**
 * The feed's input: the gateway sends a heartbeat, so silence there means a dead feed; Firestore
 * sends none (its own `fromCache` says when it is offline).
 */
export const liveOrderFeedInput = (scope: FeedScope, firestore?: FirestoreFeedConfig | null): LiveOrderFeedInput =>
  ({ ...scope, silenceMs: usesFirestore(scope, firestore) ? null : TIMINGS.feedSilenceMs });

/**
 * The live order feed bound for the console: the gateway subscription by default, Firestore when
 * Firebase is configured and the user follows one branch (the collection is filtered by branch;
 * a wider scope needs the server's filtering, so it always uses the gateway).
 */
export function provideLiveOrderFeed(opts: { client: ApolloClient; transport: LiveTransport; scope: FeedScope; firestore?: FirestoreFeedConfig | null }) {
  const useFirestore = usesFirestore(opts.scope, opts.firestore);
  return liveOrderFeedMachine.provide({
    actors: {
      subscribe: useFirestore ? firestoreFeed(opts.firestore!) : gatewayFeed(opts.transport),
      catchUp: fromPromise(({ input }) => catchUpOrders(opts.client, input.afterId, input.scope)),
      stillWaiting: fromPromise(({ input }) => stillWaitingOrders(opts.client, input.orderIds, opts.scope)),
    },
    actions: {
      alertNewOrder: (_, { orderId }) => {
        playAlertSound(orderId);
        notify('success', 'New order', TEXT.newOrder(orderId));
      },
      remindWaiting: (_, { orderIds }) => {
        playAlertSound(orderIds[0], orderIds);
        notify('warning', 'Still waiting', `${orderIds.map((id) => `#${id}`).join(', ')} ${orderIds.length === 1 ? 'is' : 'are'} not accepted yet. Open or accept ${orderIds.length === 1 ? 'it' : 'them'} to stop the alert.`);
      },
    },
  });
}
