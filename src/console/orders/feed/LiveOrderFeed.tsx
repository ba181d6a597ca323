import { useEffect, useMemo } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { Intent, Tag } from '@blueprintjs/core';
import { selectFeedReason, selectFeedStatus } from '../../../../machines/liveOrderFeed';
import { useGraphqlEndpoint } from '../../../lib/endpoint';
import { firestoreFeedConfig, provideLiveOrderFeed } from './provideFeed';
import { preloadAlertSound } from './alertSound';

const LABEL = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', refused: 'Feed off' } as const;
const INTENT = { live: Intent.SUCCESS, connecting: Intent.NONE, reconnecting: Intent.WARNING, refused: Intent.DANGER } as const;

/**
 * Runs the live order feed for as long as the console is open (any page: the alert must sound
 * wherever the user is) and shows its state in the top bar. `branchId`: the branch the user
 * follows, null for their whole scope.
 */
export function LiveOrderFeed({ branchId }: { branchId: number | null }) {
  const client = useApolloClient();
  const uri = useGraphqlEndpoint();
  const machine = useMemo(
    () => provideLiveOrderFeed({ client, uri, scope: { branchId }, firestore: firestoreFeedConfig() }),
    [client, uri, branchId],
  );
  const feed = useActorRef(machine, { input: { branchId } });
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

  // A plain title, not a Tooltip: Blueprint's Popover-based tooltips misbehave under React 19.
  return (
    <Tag minimal round intent={INTENT[status]} data-testid="feed-status" data-status={status} className="console-feed-status" title={status === 'live' ? 'New orders arrive live' : reason ?? undefined}>
      {LABEL[status]}
    </Tag>
  );
}
