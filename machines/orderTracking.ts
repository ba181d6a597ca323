import { assign, fromCallback, setup } from 'xstate';
import { TIMINGS } from '../domain/constants';
import { retryDelayMs } from './liveOrderFeed';

/**
 * The customer's tracker of one open order (/track-order, /track; issue 11): it follows the order
 * through the gateway's `orderTracking` subscription and has the page read the order again when it
 * changes. The stream sends the feed's heartbeat, so silence means it is down.
 *
 *   connecting ──tracking.connected──▶ live (read once: what changed before the stream opened)
 *   live ──tracking.changed──▶ live (read)      live, silent for TIMINGS.feedSilenceMs ──▶ down
 *   connecting, silent as long ──▶ down         tracking.dropped ──▶ down
 *   down: read once on entry (the slow fallback poll), try again after 1 s, 2 s, 4 s … 15 s
 *   tracking.refused (401 ended the session; 403/404: not this caller's order) ──▶ refused, for good
 *
 * So the page polls only while the subscription is down, at most once per retry. The view runs the
 * tracker only while the order is open (pending, accepted, ready).
 *
 * Ports: actor `subscribe` (callback: sends back the events below); action `readOrder`.
 */
export type OrderTrackingEvent =
  | { type: 'tracking.connected' }
  | { type: 'tracking.heartbeat' }
  | { type: 'tracking.changed' }
  | { type: 'tracking.dropped'; reason: string }
  | { type: 'tracking.refused'; reason: string };

export const orderTrackingMachine = setup({
  types: {
    context: {} as { attempt: number; reason: string | null },
    events: {} as OrderTrackingEvent,
  },
  actors: {
    subscribe: fromCallback<OrderTrackingEvent>(() => {
      throw new Error('subscribe is not bound');
    }),
  },
  actions: {
    readOrder: () => {},
  },
  delays: {
    silence: TIMINGS.feedSilenceMs,
    retryDelay: ({ context }) => retryDelayMs(context.attempt),
  },
}).createMachine({
  id: 'orderTracking',
  context: { attempt: 0, reason: null },
  initial: 'following',
  states: {
    following: {
      invoke: { src: 'subscribe' },
      initial: 'connecting',
      states: {
        connecting: { after: { silence: '#orderTracking.down' } },
        live: {
          entry: assign({ attempt: 0, reason: null }),
          // Each heartbeat or change starts the silence over.
          after: { silence: { target: '#orderTracking.down', actions: assign({ reason: 'The order stream went silent.' }) } },
          on: { 'tracking.heartbeat': { target: 'live', reenter: true } },
        },
      },
      on: {
        'tracking.connected': { target: '.live', actions: 'readOrder' },
        'tracking.changed': { target: '.live', reenter: true, actions: 'readOrder' },
        'tracking.dropped': { target: 'down', actions: assign({ reason: ({ event }) => event.reason }) },
        'tracking.refused': { target: 'refused', actions: assign({ reason: ({ event }) => event.reason }) },
      },
    },
    down: {
      entry: [assign({ attempt: ({ context }) => context.attempt + 1 }), 'readOrder'],
      after: { retryDelay: 'following' },
    },
    refused: {},
  },
});

/** 'live' while the stream is heard from; 'down' while it is being retried (and the page reads by itself). */
export const selectTrackingStatus = (s: { matches(v: unknown): boolean }): 'live' | 'connecting' | 'down' | 'refused' =>
  s.matches('refused') ? 'refused' : s.matches('down') ? 'down' : s.matches({ following: 'live' }) ? 'live' : 'connecting';
