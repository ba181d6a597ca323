import { useEffect, useRef } from 'react';
import { createActor, fromCallback } from 'xstate';
import { watchOrderFeed } from '../../../machines/liveOrderFeed';
import { useLiveOrderFeedRef } from './feed/LiveOrderFeed';

/**
 * Calls `refresh` when the live feed says the order lists are stale (a view of orders that is not
 * a machine, like the dashboard's counts). It runs `watchOrderFeed` in the feed's actor system,
 * as a board does, under a small parent that calls `refresh`; boards run it themselves.
 */
export function useOrderSignals(refresh: () => void) {
  const latest = useRef(refresh);
  latest.current = refresh;
  const feed = useLiveOrderFeedRef();
  useEffect(() => {
    if (!feed) return;
    const view = createActor(fromCallback(({ receive }) => { receive(() => latest.current()); }), { parent: feed });
    const watcher = createActor(watchOrderFeed, { parent: view, input: { onStale: { type: 'orders.stale' } } });
    view.start();
    watcher.start();
    return () => { watcher.stop(); view.stop(); };
  }, [feed]);
}
