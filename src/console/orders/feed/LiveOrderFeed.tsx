import './feed.css';
import { useEffect, useMemo } from 'react';
import { createPortal } from 'react-dom';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { Intent, Tag } from '@blueprintjs/core';
import { selectFeedReason, selectFeedStatus } from '../../../../machines/liveOrderFeed';
import { useGraphqlEndpoint } from '../../../lib/endpoint';
import { firestoreFeedConfig, liveOrderFeedInput, provideLiveOrderFeed } from './provideFeed';
import { preloadAlertSound } from './alertSound';

const LABEL = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', refused: 'Feed off' } as const;
const INTENT = { live: Intent.SUCCESS, connecting: Intent.NONE, reconnecting: Intent.WARNING, refused: Intent.DANGER } as const;

/** What the page-wide banner says while the feed is down (issue 11: a small tag was not enough). */
export const FEED_DOWN_TEXT = 'Live updates are down: new orders will not appear or sound until the connection is back. Reconnecting…';
export const FEED_REFUSED_TEXT = 'Live updates are off for this session. Sign in again to hear new orders.';

/**
 * Runs the live order feed for as long as the console is open (any page: the alert must sound
 * wherever the user is), shows its state in the top bar, and a page-wide banner while it is down.
 * `branchId`: the branch the user follows, null for their whole scope.
 */
export function LiveOrderFeed({ branchId }: { branchId: number | null }) {
  const client = useApolloClient();
  const uri = useGraphqlEndpoint();
  const firestore = useMemo(() => firestoreFeedConfig(), []);
  const machine = useMemo(
    () => provideLiveOrderFeed({ client, uri, scope: { branchId }, firestore }),
    [client, uri, branchId, firestore],
  );
  const feed = useActorRef(machine, { input: liveOrderFeedInput({ branchId }, firestore) });
  const status = useSelector(feed, selectFeedStatus);
  const reason = useSelector(feed, selectFeedReason);

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

  const down = status === 'reconnecting' || status === 'refused';
  useEffect(() => {
    document.body.classList.toggle('feed-down', down);
    return () => { document.body.classList.remove('feed-down'); };
  }, [down]);

  // A plain title, not a Tooltip: Blueprint's Popover-based tooltips misbehave under React 19.
  return (
    <>
      <Tag minimal round intent={INTENT[status]} data-testid="feed-status" data-status={status} className="console-feed-status" title={status === 'live' ? 'New orders arrive live' : reason ?? undefined}>
        {LABEL[status]}
      </Tag>
      {down && createPortal(
        <div className="feed-down-banner" role="alert" data-testid="feed-down-banner" title={reason ?? undefined}>
          {status === 'refused' ? FEED_REFUSED_TEXT : FEED_DOWN_TEXT}
        </div>,
        document.body,
      )}
    </>
  );
}
