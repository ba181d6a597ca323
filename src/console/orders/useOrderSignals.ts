import { useEffect, useRef } from 'react';
import { createActor, setup } from 'xstate';
import { watchOrderFeed } from '../../../machines/liveOrderFeed';
import { useLiveOrderFeedRef } from './feed/LiveOrderFeed';

/** A view of orders that is not a board: it watches the feed and calls back when its lists are stale. */
const staleWatcher = setup({
  types: { input: {} as { feed: NonNullable<ReturnType<typeof useLiveOrderFeedRef>>; refresh: () => void } },
  actors: { watchOrderFeed },
}).createMachine({
  context: ({ input }) => input,
  invoke: { src: 'watchOrderFeed', input: ({ context }) => ({ onStale: { type: 'orders.stale' }, feed: context.feed }) },
  on: { 'orders.stale': { actions: ({ context }) => context.refresh() } },
});

/**
 * Calls `refresh` when the live feed says the order lists are stale (a view of orders that is not
 * a machine, like the dashboard's counts). It runs `watchOrderFeed` under a small root actor, as a
 * board does; boards run it themselves.
 */
export function useOrderSignals(refresh: () => void) {
  const latest = useRef(refresh);
  latest.current = refresh;
  const feed = useLiveOrderFeedRef();
  useEffect(() => {
    if (!feed) return;
    const watcher = createActor(staleWatcher, { input: { feed, refresh: () => latest.current() } }).start();
    return () => { watcher.stop(); };
  }, [feed]);
}
