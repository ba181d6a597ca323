import type { AnyActorRef } from 'xstate';

/** The live order feed's types (machines/liveOrderFeed.ts, which re-exports them), apart so the machine reads as its states. */

/** What the feed tells its watchers: the order lists they show are stale, read them again. */
export interface OrderListsStale { type: 'orders.stale' }

export interface FeedScope {
  /** Only this branch's orders (a branch user's); null: the whole scope of the user. */
  branchId: number | null;
}

export interface LiveOrderFeedInput extends FeedScope {
  /** The transport's promised heartbeat: silent this long means dead. Null or absent: it sends none (Firestore). */
  silenceMs?: number | null;
}

/** What a transport sends back to the machine. */
export type FeedTransportEvent =
  | { type: 'feed.connected' }
  /** The server is there (sent every few seconds by a transport that promises it). */
  | { type: 'feed.heartbeat' }
  /** `fired`: an order for later reached the kitchen at its fire time (announced like a created one). */
  | { type: 'feed.order'; orderId: number; change: 'created' | 'changed' | 'fired' }
  /** Something new, unnamed or maybe not all of it (Firestore's newest-only query): fetch what follows the last seen id. */
  | { type: 'feed.poke' }
  | { type: 'feed.dropped'; reason: string }
  | { type: 'feed.refused'; reason: string };

export type LiveOrderFeedEvent =
  | FeedTransportEvent
  /** Try to reconnect now (the browser is back online). */
  | { type: 'feed.retry' }
  | { type: 'feed.refreshDue' }
  | { type: 'feed.remindDue' }
  /** Orders to announce (internal): those above the last seen id, once each; `latestId` moves the mark. */
  | { type: 'feed.newOrders'; orderIds: number[]; latestId?: number | null; fired?: boolean }
  /** A board (or another view of orders) wants `orders.stale`, until it stops or unwatches. */
  | { type: 'feed.watch'; watcher: AnyActorRef }
  | { type: 'feed.unwatch'; watcher: AnyActorRef }
  | { type: 'feed.changesDue' };

export interface CatchUpResult { orderIds: number[]; latestId: number | null }

export interface LiveOrderFeedContext {
  scope: FeedScope;
  silenceMs: number | null;
  /** The newest order id seen (announced or already there when the feed started): catch-ups fetch what follows it. */
  lastSeenId: number | null;
  /** The newest order when the feed started: it and older orders are never announced. */
  startId: number | null;
  /**
   * Orders announced lately. Dedupe is by id, not "above the last seen id": on PostgreSQL two
   * orders can commit out of id order, and the later-committing, lower id is still new.
   */
  announced: number[];
  /** Reconnection attempts since the feed was last live. */
  attempt: number;
  refreshScheduled: boolean;
  /** Announced orders nobody has taken yet (the alert repeats for them), and whether a reminder is due. */
  waiting: number[];
  /** The ids the running check asks about. */
  checking: number[];
  remindScheduled: boolean;
  /** The feed has been live before: a connection now is a reconnection. */
  wasLive: boolean;
  /** This catch-up follows a reconnection, so the lists refetch for the changes missed meanwhile. */
  resync: boolean;
  reason: string | null;
  /** Who hears `orders.stale` (registered through the actor system). */
  watchers: AnyActorRef[];
  changesScheduled: boolean;
}
