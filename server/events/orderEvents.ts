import { EventEmitter } from 'node:events';

/**
 * What the live order feed carries: a new order, or a change of one, for a branch. An order for
 * later is `order.scheduled` when placed (the board lists it, no alert) and `order.fired` when it
 * reaches the kitchen at its fire time (the alert, as for a new order; server/orders/fire.ts).
 */
export interface OrderEvent {
  /**
   * The event's id, increasing in the order events are delivered (the `order_events` row's id on
   * a database): a subscriber that reconnects resumes after the last id it saw (`ResumeFrom`).
   */
  id: number;
  type: 'order.created' | 'order.changed' | 'order.scheduled' | 'order.fired';
  orderId: number;
  branchId: number;
  brandId: number;
  at: string;
}

/** A subscription that resumes after the last event its subscriber saw, e.g. on another process. */
export interface ResumeFrom {
  /** The last event id seen: the events after it are handed over first, once each, then the live ones. */
  after: number;
  /**
   * Some events after `after` can no longer be replayed (older than the retention, or never kept
   * here): the subscriber must catch up some other way (the console: the lists' `CreatedAfterId`).
   */
  reset(): void;
}

/**
 * The port the order services publish to and the live feed subscribes to. The default here is
 * in-process only; server/events/ swaps in a shared one (an `order_events` table woken by
 * PostgreSQL LISTEN/NOTIFY) so that several server processes all see every order.
 */
export interface OrderEvents {
  /**
   * Hands an event to the subscribers. Without `id`, the port writes it (its row and the wake-up
   * of the other processes). With `id` and `at`, its row was written already, by the change's own
   * statement or transaction (./orderEventRow.ts), so that it exists exactly when the change does:
   * the port only hands it to this process's subscribers at once, after the commit.
   */
  publish(event: Omit<OrderEvent, 'at' | 'id'> & Partial<Pick<OrderEvent, 'at' | 'id'>>): Promise<void>;
  subscribe(listener: (event: OrderEvent) => void, resume?: ResumeFrom): () => void;
  close(): Promise<void>;
}

/** How many events the in-process port keeps for subscribers that resume. */
const KEPT_IN_MEMORY = 1000;

export function inMemoryOrderEvents(): OrderEvents {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const kept: OrderEvent[] = [];
  let lastId = 0;
  return {
    async publish(event) {
      // This process's own numbering: nothing here reads the table an event's row may be written to.
      const e = { ...event, id: ++lastId, at: event.at ?? new Date().toISOString() } as OrderEvent;
      kept.push(e);
      if (kept.length > KEPT_IN_MEMORY) kept.shift();
      bus.emit('event', e);
    },
    subscribe(listener, resume) {
      if (resume) {
        if ((kept[0]?.id ?? lastId + 1) > resume.after + 1) resume.reset();
        for (const e of kept) if (e.id > resume.after) listener(e);
      }
      const live = resume ? (e: OrderEvent) => { if (e.id > resume.after) listener(e); } : listener;
      bus.on('event', live);
      return () => bus.off('event', live);
    },
    async close() { bus.removeAllListeners(); },
  };
}
