import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { branches, orders } from '../db/schema';
import { ApiError } from '../http/envelope';
import { transitionOrder, type OrderOps } from './transition';

export const FIRE_BATCH = 50;

/**
 * An order for later reaches the kitchen at its fire time (issue 25): its chosen time less the
 * branch's preparation minutes as they are now (domain/orderTime.ts fireTimeOf, the same rule in
 * SQL). The lifecycle's `order.fire` (scheduled → pending) is sent by the system through
 * transitionOrder, which stamps `fired_at` and announces `order.fired` to the live feed: the
 * console adds it to the board and sounds the alert as for a new order, auto-accept takes it, and
 * the acceptance deadline counts from then (server/orders/deadline.ts).
 *
 * Exactly once across processes: two runners reaching the same order both try the version-checked
 * step; one wins, the other is judged again on `pending` and refused (409, skipped).
 * Returns the ids this call fired.
 */
export async function fireDueOrders(ops: OrderOps, now = new Date()): Promise<number[]> {
  const due = await ops.db.select({ id: orders.id }).from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .where(and(
      eq(orders.status, 'scheduled'),
      lte(sql`${orders.scheduledFor} - make_interval(mins => ${branches.preparationMinutes})`, sql`${now.toISOString()}::timestamptz`),
    ))
    .orderBy(asc(orders.scheduledFor)).limit(FIRE_BATCH);
  const fired: number[] = [];
  for (const { id } of due) if (await fireOrder(ops, id)) fired.push(id);
  return fired;
}

/** Fires one order; false when it is no longer scheduled (fired, rejected or refunded meanwhile). */
async function fireOrder(ops: OrderOps, orderId: number): Promise<boolean> {
  try {
    await transitionOrder(ops, orderId, { type: 'order.fire' }, null);
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 409 || err.status === 404)) return false;
    throw err;
  }
}
