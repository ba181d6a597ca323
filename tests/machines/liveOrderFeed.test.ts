import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { liveOrderFeedMachine, retryDelayMs, selectFeedDown, selectFeedStatus, type CatchUpResult } from '../../machines/liveOrderFeed';
import { TIMINGS } from '../../domain/constants';

/** The feed machine alone, with in-memory ports: the edges the model test cannot stage on a real server. */
function harness(catchUp: (afterId: number | null) => CatchUpResult, silenceMs?: number, stillWaiting: (ids: number[]) => number[] = () => []) {
  let send: ((e: AnyEventObject) => void) | null = null;
  const alerts: number[] = [];
  const reminders: number[][] = [];
  let refreshes = 0;
  const feed = createActor(liveOrderFeedMachine.provide({
    actors: {
      subscribe: fromCallback(({ sendBack }) => { send = sendBack; return () => { send = null; }; }),
      catchUp: fromPromise(async ({ input }) => catchUp(input.afterId)),
      stillWaiting: fromPromise(async ({ input }) => stillWaiting(input.orderIds)),
    },
    actions: {
      alertNewOrder: (_, { orderId }) => { alerts.push(orderId); },
      refreshOrderLists: () => { refreshes++; },
      remindWaiting: (_, { orderIds }) => { reminders.push(orderIds); },
    },
  }), { input: { branchId: 1, silenceMs } });
  feed.start();
  return { feed, alerts, reminders, refreshes: () => refreshes, transport: (e: AnyEventObject) => send!(e) };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('liveOrderFeed machine', () => {
  it('never announces what was there when it started, and announces a late, lower id once', async () => {
    const h = harness((after) => (after === null ? { orderIds: [], latestId: 40 } : { orderIds: [], latestId: after }));
    h.transport({ type: 'feed.connected' });
    await tick();
    expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
    h.transport({ type: 'feed.order', orderId: 40, change: 'created' });
    h.transport({ type: 'feed.order', orderId: 42, change: 'created' });
    // 41 committed after 42 (two transactions on PostgreSQL): still new.
    h.transport({ type: 'feed.order', orderId: 41, change: 'created' });
    h.transport({ type: 'feed.order', orderId: 42, change: 'created' });
    h.transport({ type: 'feed.order', orderId: 41, change: 'changed' });
    expect(h.alerts).toEqual([42, 41]);
    h.feed.stop();
  });

  it('announces an order for later when it fires (issue 25), though its id is older than the start of the feed; once', async () => {
    const h = harness((after) => (after === null ? { orderIds: [], latestId: 40 } : { orderIds: [], latestId: after }));
    h.transport({ type: 'feed.connected' });
    await tick();
    // Placed as scheduled: a change for the lists, no alert.
    h.transport({ type: 'feed.order', orderId: 12, change: 'changed' });
    expect(h.alerts).toEqual([]);
    // At its fire time it is the kitchen's new order.
    h.transport({ type: 'feed.order', orderId: 12, change: 'fired' });
    h.transport({ type: 'feed.order', orderId: 12, change: 'fired' });
    h.transport({ type: 'feed.order', orderId: 43, change: 'created' });
    expect(h.alerts).toEqual([12, 43]);
    expect(h.feed.getSnapshot().context.lastSeenId).toBe(43);
    h.feed.stop();
  });

  it('refreshes the lists once, 2 s after the first order of a burst', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(() => ({ orderIds: [], latestId: 0 }));
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      h.transport({ type: 'feed.order', orderId: 1, change: 'created' });
      await vi.advanceTimersByTimeAsync(500);
      h.transport({ type: 'feed.order', orderId: 2, change: 'created' });
      await vi.advanceTimersByTimeAsync(TIMINGS.newOrderRefreshMs - 501);
      expect(h.refreshes()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.refreshes()).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(h.refreshes()).toBe(1);
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays down for the banner while a reconnection is tried, until the feed is live again (the first connection is not down)', async () => {
    vi.useFakeTimers();
    try {
      const h = harness((after) => ({ orderIds: [], latestId: after ?? 3 }));
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('connecting');
      expect(selectFeedDown(h.feed.getSnapshot())).toBe(false);
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      expect(selectFeedDown(h.feed.getSnapshot())).toBe(false);
      h.transport({ type: 'feed.dropped', reason: 'cut' });
      expect(selectFeedDown(h.feed.getSnapshot())).toBe(true);
      // The retry: connecting again, and still down (the banner used to vanish during each attempt).
      await vi.advanceTimersByTimeAsync(retryDelayMs(1));
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('connecting');
      expect(selectFeedDown(h.feed.getSnapshot())).toBe(true);
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
      expect(selectFeedDown(h.feed.getSnapshot())).toBe(false);
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('after a drop, backs off, reconnects, catches up from the last seen id and refetches the lists', async () => {
    vi.useFakeTimers();
    try {
      const asked: (number | null)[] = [];
      const h = harness((after) => { asked.push(after); return after === null ? { orderIds: [], latestId: 7 } : { orderIds: [8, 9], latestId: 9 }; });
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      h.transport({ type: 'feed.dropped', reason: 'cut' });
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('reconnecting');
      await vi.advanceTimersByTimeAsync(retryDelayMs(1));
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      expect(asked).toEqual([null, 7]);
      expect(h.alerts).toEqual([8, 9]);
      expect(h.refreshes()).toBe(1);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops for good when the server refuses the user', async () => {
    const h = harness(() => ({ orderIds: [], latestId: 0 }));
    h.transport({ type: 'feed.refused', reason: 'Forbidden' });
    expect(selectFeedStatus(h.feed.getSnapshot())).toBe('refused');
    h.feed.stop();
  });

  it('a transport that beats: live only while heard from; silent for silenceMs, it reconnects (issue 11)', async () => {
    vi.useFakeTimers();
    try {
      const silence = TIMINGS.feedSilenceMs;
      const h = harness(() => ({ orderIds: [], latestId: 0 }), silence);
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
      // Heartbeats (and orders) every 2 s keep it live well past the silence limit.
      for (let t = 0; t < 3 * silence; t += TIMINGS.feedHeartbeatMs) {
        await vi.advanceTimersByTimeAsync(TIMINGS.feedHeartbeatMs);
        h.transport({ type: 'feed.heartbeat' });
      }
      h.transport({ type: 'feed.order', orderId: 5, change: 'created' });
      await vi.advanceTimersByTimeAsync(silence - 1);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
      // Then nothing: dead after silenceMs, not before; the reason says so.
      await vi.advanceTimersByTimeAsync(1);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('reconnecting');
      expect(h.feed.getSnapshot().context.reason).toMatch(/Nothing heard/);
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a connection that never answers counts as down after silenceMs too', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(() => ({ orderIds: [], latestId: 0 }), TIMINGS.feedSilenceMs);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('connecting');
      await vi.advanceTimersByTimeAsync(TIMINGS.feedSilenceMs);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('reconnecting');
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a transport without a heartbeat (Firestore) stays live through silence', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(() => ({ orderIds: [], latestId: 0 }));
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(10 * TIMINGS.feedSilenceMs);
      expect(selectFeedStatus(h.feed.getSnapshot())).toBe('live');
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('repeats the alert for announced orders nobody has taken, until the server says they are taken (issue 11)', async () => {
    vi.useFakeTimers();
    try {
      let waitingOnServer = [5, 6];
      const asked: number[][] = [];
      const h = harness(() => ({ orderIds: [], latestId: 0 }), undefined, (ids) => { asked.push(ids); return ids.filter((id) => waitingOnServer.includes(id)); });
      h.transport({ type: 'feed.connected' });
      await vi.advanceTimersByTimeAsync(0);
      h.transport({ type: 'feed.order', orderId: 5, change: 'created' });
      await vi.advanceTimersByTimeAsync(TIMINGS.newOrderRepeatMs - 1);
      expect(h.reminders).toEqual([]);
      h.transport({ type: 'feed.order', orderId: 6, change: 'created' });
      await vi.advanceTimersByTimeAsync(1);
      expect(asked).toEqual([[5, 6]]);
      expect(h.reminders).toEqual([[5, 6]]);
      // 5 was accepted (or opened): only 6 rings on.
      waitingOnServer = [6];
      await vi.advanceTimersByTimeAsync(TIMINGS.newOrderRepeatMs);
      expect(h.reminders).toEqual([[5, 6], [6]]);
      waitingOnServer = [];
      await vi.advanceTimersByTimeAsync(TIMINGS.newOrderRepeatMs);
      expect(h.reminders).toHaveLength(2);
      // Nothing left to ask about: the checks stop.
      const checks = asked.length;
      await vi.advanceTimersByTimeAsync(5 * TIMINGS.newOrderRepeatMs);
      expect(asked).toHaveLength(checks);
      expect(h.alerts).toEqual([5, 6]);
      h.feed.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
