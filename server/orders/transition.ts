import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { orders } from '../db/schema';
import { ApiError, conflict, notFound } from '../http/envelope';
import type { Caller } from '../http/context';
import type { OrderEvent, OrderEvents } from '../events/orderEvents';
import { orderEventRow, writtenEvent } from '../events/orderEventRow';
import {
  isRepeat, nextOrderState, refusalMessage, type OrderLifecycleEvent,
} from '../../machines/orderLifecycle';
import { orderScope } from './scope';
import { applyLoyalty } from './points';
import { recordRefund, wakeRefundWorkers, type RefundRecord } from '../payments/refunds';
import { noticeOrderStatus } from '../notify/orderPushes';
import { queueTickets } from '../printing/jobs';
import { releasePlace } from './slots';

export type { OrderRecord } from './row';
import type { OrderRecord } from './row';

/** What transitionOrder needs: the database and the order events port (an AppContext has both). */
export interface OrderOps { db: Db; events: OrderEvents }

export interface TransitionOptions {
  /** The version the caller last saw; a different current version is a 409, nothing written. */
  expectedVersion?: number;
  /** Extra writes in the same transaction, after the order row is updated (e.g. the refund request row). */
  within?: (tx: Tx, updated: OrderRecord, before: OrderRecord) => Promise<void>;
}

export interface TransitionResult {
  order: OrderRecord;
  /** False when the event was a harmless repeat (markPaid on a paid order, markRead on a read one). */
  changed: boolean;
  /** The refund this step decided (server/payments/refunds.ts), written in its transaction; null for none. */
  refund?: RefundRecord | null;
}

/**
 * Moves one order through the lifecycle machine (machines/orderLifecycle.ts), the only way order
 * lifecycle columns change. Loads the order within the caller's scope (a null caller is the system:
 * no scope), asks the machine, and writes the new columns with an optimistic version check, in a
 * transaction, judging again on the new state if another writer got in between (up to 3 tries).
 * Out of scope or unknown: 404. Refused by the machine, or changed since `expectedVersion`: 409.
 * Nothing is written in either case. A rejection or an approved refund gives redeemed points back
 * in the same transaction; a step that ends a paid order unserved, or approves a refund, writes
 * its refund row there too (recordRefund). Writes its `order.changed` event in the same transaction (`order.fired` for `order.fire`), handed to the live feed after commit.
 */
export async function transitionOrder(
  { db, events }: OrderOps,
  orderId: number,
  event: OrderLifecycleEvent,
  caller: Caller,
  opts: TransitionOptions = {},
): Promise<TransitionResult> {
  // A concurrent writer between our read and our write makes the version check fail; the event is
  // then judged again on the new state (a second accept is refused, a markPaid becomes a repeat).
  let result: TransitionResult | null = null;
  // The live feed's event, written in the change's transaction (it exists exactly when the change does).
  const eventType = event.type === 'order.fire' ? 'order.fired' : 'order.changed';
  let announced: OrderEvent | null = null;
  for (let attempt = 1; !result; attempt++) {
    result = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(orders).where(and(eq(orders.id, orderId), orderScope(caller)));
      if (!row) throw notFound('Order');
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version) throw changedMeanwhile(orderId);
      if (isRepeat(row, event)) return { order: row, changed: false };
      const next = nextOrderState(row, event);
      if (!next) throw conflict(refusalMessage(row.id, row, event));
      const now = new Date();
      const [updated] = await tx
        .update(orders)
        .set({
          ...next,
          version: row.version + 1,
          updatedAt: now,
          ...(next.payment === 'paid' && row.payment !== 'paid' ? { paidAt: now } : {}),
          ...(next.status === 'accepted' && row.status !== 'accepted' ? { acceptedAt: now } : {}),
          ...(next.status === 'ready' && row.status !== 'ready' ? { readyAt: now } : {}),
          ...(event.type === 'order.fire' ? { firedAt: now } : {}),
          ...('reason' in event && event.reason ? { statusReason: event.reason } : {}),
        })
        .where(and(eq(orders.id, orderId), eq(orders.version, row.version)))
        .returning();
      if (!updated) {
        if (attempt < MAX_ATTEMPTS) return null;
        throw changedMeanwhile(orderId);
      }
      // The money goes back (server/payments/refunds.ts); loyalty follows the lifecycle: earn on close,
      // give back on reject/refund, earned points taken back in proportion to the refund (server/orders/points.ts).
      const refund = await recordRefund(tx, row, updated, event, caller);
      await applyLoyalty(tx, row, updated, refund);
      // The customer is told of accepted, ready and rejected in the same transaction (server/notify/orderPushes.ts).
      await noticeOrderStatus(tx, row, updated);
      // An accepted order's tickets are queued for its branch's printers with the acceptance (server/printing/jobs.ts).
      if (updated.status === 'accepted' && row.status !== 'accepted') await queueTickets(tx, updated);
      // A rejected order gives its place in its time slot back (server/orders/slots.ts).
      if (updated.status === 'rejected' && row.status !== 'rejected') await releasePlace(tx, updated);
      await opts.within?.(tx, updated, row);
      const place = { orderId: updated.id, branchId: updated.branchId, brandId: updated.brandId };
      const [written] = rowsOf<{ eventId: unknown; eventAt: unknown }>(await tx.execute(
        sql`with e as (${orderEventRow(eventType, sql`select ${updated.id}::int as id`, place)}) select id as "eventId", at as "eventAt" from e`));
      announced = writtenEvent(eventType, place, written);
      return { order: updated, changed: true, refund };
    });
  }

  if (result.refund?.status === 'pending') wakeRefundWorkers();
  if (result.changed && announced) {
    // Committed with its event's row; handed to this process's subscribers at once, and a failure here
    // must not turn the change into an error for the caller. An order for later reaching the kitchen is
    // announced as the kitchen's new order (server/orders/fire.ts).
    await events.publish(announced).catch(() => {});
  }
  return result;
}

/**
 * A step the system takes (a null caller) that someone may have taken meanwhile: staff, another
 * process's timed round, another process hearing the same event. The version-checked write lets one
 * through; the others are judged again on the new state and refused (409), or find the order gone
 * (404): for the system that means "already done", and the step is skipped. True when this call
 * took the step. Used by the timed jobs (server/orders/fire.ts, deadline.ts) and auto-accept.
 */
export async function trySystemStep(ops: OrderOps, orderId: number, event: OrderLifecycleEvent): Promise<boolean> {
  try {
    await transitionOrder(ops, orderId, event, null);
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return false;
    throw err;
  }
}

const MAX_ATTEMPTS = 3;

const changedMeanwhile = (orderId: number) =>
  conflict(`Order #${orderId} was changed by someone else meanwhile. Reload it and try again.`);
