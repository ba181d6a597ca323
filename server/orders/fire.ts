import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { branches, orders } from '../db/schema';
import { JOB_BATCH } from '../jobs/runner';
import { trySystemStep, type OrderOps } from './transition';

/**
 * An order for later reaches the kitchen at its fire time (issue 25): its chosen time less the
 * branch's preparation minutes as they are now (domain/orderTime.ts fireTimeOf, the same rule in
 * SQL). The lifecycle's `order.fire` (scheduled → pending) is sent by the system through
 * transitionOrder, which stamps `fired_at` and announces `order.fired` to the live feed: the
 * console adds it to the board and sounds the alert as for a new order, auto-accept takes it, and
 * the acceptance deadline counts from then (server/orders/deadline.ts).
 *
 * Exactly once across processes: two runners reaching the same order both try the version-checked
 * step (trySystemStep); one wins, the other is judged again on `pending` and refused (skipped).
 * Returns the ids this call fired.
 */
export async function fireDueOrders(ops: OrderOps, now = new Date()): Promise<number[]> {
  const due = await ops.db.select({ id: orders.id }).from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .where(and(
      eq(orders.status, 'scheduled'),
      lte(sql`${orders.scheduledFor} - make_interval(mins => ${branches.preparationMinutes})`, sql`${now.toISOString()}::timestamptz`),
    ))
    .orderBy(asc(orders.scheduledFor)).limit(JOB_BATCH);
  const fired: number[] = [];
  // False when it is no longer scheduled (fired, rejected or refunded meanwhile).
  for (const { id } of due) if (await trySystemStep(ops, id, { type: 'order.fire' })) fired.push(id);
  return fired;
}
