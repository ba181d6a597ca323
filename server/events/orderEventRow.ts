import { sql, type SQL } from 'drizzle-orm';
import type { OrderEvent } from './orderEvents';

/** The PostgreSQL channel that wakes the processes when an order event was written. */
export const ORDER_EVENTS_CHANNEL = 'order_events';

/**
 * A data-modifying CTE body that writes an order event's row for the order(s) `from` selects (its
 * `id` column; none: no event) and wakes the processes at commit (pg_notify with the event's id).
 * Written by the change's own statement or transaction, an event exists exactly when its change
 * does: a process killed after the commit cannot leave an order no console hears of. Returns the
 * event's `id` and `at`, for `OrderEvents.publish` to hand it to this process's subscribers.
 */
export function orderEventRow(type: OrderEvent['type'], from: SQL, place: { branchId: SQL | number; brandId: SQL | number }): SQL {
  return sql`insert into order_events (type, order_id, branch_id, brand_id, payload)
      select ${type}::text, f.id, ${place.branchId}::int, ${place.brandId}::int, '{}'::jsonb from (${from}) as f
      returning id, at, pg_notify(${ORDER_EVENTS_CHANNEL}::text, id::text)`;
}

/** The event its row's `id` and `at` (as a statement answers them) make of a change. */
export function writtenEvent(type: OrderEvent['type'], order: { orderId: number; branchId: number; brandId: number }, row: { eventId: unknown; eventAt: unknown }): OrderEvent {
  return { id: Number(row.eventId), at: new Date(row.eventAt as string | Date).toISOString(), type, ...order };
}
