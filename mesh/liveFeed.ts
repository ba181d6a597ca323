import type { LiveOrderFeedSource } from '../server/events/orderFeed';

/**
 * The live order feed the gateway's `orderEvents` subscription reads (mesh/subscriptions.ts).
 * Set by whoever mounts the gateway next to the REST services (mesh/inProcess.ts); a module
 * registry like fetch.ts's in-process upstream, because the built mesh imports its resolvers by path.
 */
let source: LiveOrderFeedSource | null = null;
export const setLiveOrderFeed = (feed: LiveOrderFeedSource | null) => { source = feed; };
export const getLiveOrderFeed = () => source;
