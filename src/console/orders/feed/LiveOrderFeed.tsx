import './feed.css';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { Intent, Tag } from '@blueprintjs/core';
import { LIVE_ORDER_FEED, selectFeedDown, selectFeedReason, selectFeedStatus, type LiveOrderFeedRef } from '../../../../machines/liveOrderFeed';
import { useLiveTransport } from '../../../lib/endpoint';
import { firestoreFeedConfig, liveOrderFeedInput, provideLiveOrderFeed } from './provideFeed';
import { preloadAlertSound } from './alertSound';

const LABEL = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', refused: 'Feed off' } as const;
const INTENT = { live: Intent.SUCCESS, connecting: Intent.NONE, reconnecting: Intent.WARNING, refused: Intent.DANGER } as const;

/** What the page-wide banner says while the feed is down (issue 11: a small tag was not enough). */
export const FEED_DOWN_TEXT = 'Live updates are down: new orders will not appear or sound until the connection is back. Reconnecting…';
export const FEED_REFUSED_TEXT = 'Live updates are off for this session. Sign in again to hear new orders.';

const FeedContext = createContext<LiveOrderFeedRef | null>(null);

/**
 * The running feed, or null when this user hears none. An order board is handed it and watches it
 * (machines/liveOrderFeed.ts `watchOrderFeed`).
 */
export const useLiveOrderFeedRef = () => useContext(FeedContext);

/**
 * Runs the live order feed for as long as the console is open (any page: the alert must sound
 * wherever the user is), under its system id, and shows a page-wide banner while it is down.
 * `branchId`: the branch the user follows, null for their whole scope. Keyed by the caller on the
 * user and branch, so a new session gets a new feed.
 */
export function LiveOrderFeedProvider({ branchId, children }: { branchId: number | null; children: ReactNode }) {
  const client = useApolloClient();
  const transport = useLiveTransport();
  const firestore = useMemo(() => firestoreFeedConfig(), []);
  const machine = useMemo(
    () => provideLiveOrderFeed({ client, transport, scope: { branchId }, firestore }),
    [client, transport, branchId, firestore],
  );
  const feed = useActorRef(machine, { input: liveOrderFeedInput({ branchId }, firestore), systemId: LIVE_ORDER_FEED });
  const status = useSelector(feed, selectFeedStatus);
  const reason = useSelector(feed, selectFeedReason);
  const down = useSelector(feed, selectFeedDown);

  // Loaded ahead, so the first alert is not late.
  useEffect(() => { preloadAlertSound(); }, []);

  useEffect(() => {
    // The browser knows about a lost network before a stream does; and when it is back, retry now.
    const offline = () => feed.send({ type: 'feed.dropped', reason: 'The network is offline.' });
    const online = () => feed.send({ type: 'feed.retry' });
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [feed]);

  useEffect(() => {
    document.body.classList.toggle('feed-down', down);
    return () => { document.body.classList.remove('feed-down'); };
  }, [down]);

  return (
    <FeedContext.Provider value={feed}>
      {children}
      {down && createPortal(
        <div className="feed-down-banner" role="alert" data-testid="feed-down-banner" title={reason ?? undefined}>
          {status === 'refused' ? FEED_REFUSED_TEXT : FEED_DOWN_TEXT}
        </div>,
        document.body,
      )}
    </FeedContext.Provider>
  );
}

/** The feed's state in the top bar. A plain title, not a Tooltip: Blueprint's Popover-based tooltips misbehave under React 19. */
export function LiveOrderFeedStatus() {
  const feed = useLiveOrderFeedRef();
  return feed ? <FeedStatusTag feed={feed} /> : null;
}

function FeedStatusTag({ feed }: { feed: LiveOrderFeedRef }) {
  const status = useSelector(feed, selectFeedStatus);
  const reason = useSelector(feed, selectFeedReason);
  return (
    <Tag minimal round intent={INTENT[status]} data-testid="feed-status" data-status={status} className="console-feed-status" title={status === 'live' ? 'New orders arrive live' : reason ?? undefined}>
      {LABEL[status]}
    </Tag>
  );
}
