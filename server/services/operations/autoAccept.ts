import { and, asc, eq, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, orders, paymentSystems } from '../../db/schema';
import type { AppContext } from '../../http/context';
import { trySystemStep, type OrderOps } from '../../orders/transition';
import { JOB_BATCH } from '../../jobs/runner';

/**
 * Auto-accept (issue 25), a branch setting, off by default: a new order of such a branch is
 * accepted at once, by the system, through the lifecycle machine and transitionOrder, exactly as a
 * click on Accept (the customer's notice, the live feed, the tracker, the printers' tickets in the
 * same transaction). The console's alert still sounds: the feed announces every new order.
 *
 * Only an order the kitchen should make now: paid, or paid at the branch (a method that is not a
 * card). An order waiting for its card payment is accepted when the payment arrives, so no ticket
 * prints for a payment the customer abandons.
 */
const ready = or(eq(orders.payment, 'paid'), eq(paymentSystems.isCard, false));

/** Accepts one order if its branch auto-accepts and it is ready; false when it is not (or someone else got there first). */
export async function autoAcceptOrder(ops: OrderOps, orderId: number): Promise<boolean> {
  const [row] = await ops.db.select({ id: orders.id }).from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .innerJoin(paymentSystems, eq(paymentSystems.id, orders.paymentSystemId))
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), eq(branches.autoAccept, true), ready));
  // Accepted or rejected meanwhile (staff, another process): the machine refuses; nothing to do.
  return row ? trySystemStep(ops, orderId, { type: 'order.accept' }) : false;
}

/**
 * The timed round's safety net (server/orders/deadline.ts): pending orders of auto-accepting
 * branches that an event did not reach (a process stopped between placing and accepting, the
 * setting switched on while orders waited). Returns the ids it accepted.
 */
export async function acceptWaitingOrders(ops: OrderOps): Promise<number[]> {
  const waiting = await ops.db.select({ id: orders.id }).from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .innerJoin(paymentSystems, eq(paymentSystems.id, orders.paymentSystemId))
    .where(and(eq(orders.status, 'pending'), eq(branches.autoAccept, true), ready))
    .orderBy(asc(orders.createdAt)).limit(JOB_BATCH);
  const accepted: number[] = [];
  for (const { id } of waiting) if (await autoAcceptOrder(ops, id)) accepted.push(id);
  return accepted;
}

/**
 * The auto-accepting branches as the event path knows them, per database (each server of a test
 * process has its own): read by the timed round every DEADLINE_SWEEP_MS (refreshAutoAcceptBranches), so an
 * order of a branch that does not auto-accept (most) costs no statement beyond its intake
 * (tests/server/order-intake.test.ts). A branch write in this process that changes the switch
 * forgets them (read again at the next event); one made by another process is seen by the next round.
 */
const autoBranches = new WeakMap<object, { ids: Promise<Set<number>>; generation: number }>();
let generation = 0;
/** Called by the branch declaration when a branch's auto-accept changes. */
export const forgetAutoAcceptBranches = () => { generation++; };
function readAutoBranches(ops: OrderOps) {
  const ids = ops.db.select({ id: branches.id }).from(branches).where(eq(branches.autoAccept, true))
    .then((rows) => new Set(rows.map((r) => r.id)));
  const known = { ids, generation };
  autoBranches.set(ops.db, known);
  ids.catch(() => autoBranches.delete(ops.db));
  return known;
}
/** Read by the timed round, once per round, before it accepts what waits. */
export const refreshAutoAcceptBranches = (ops: OrderOps) => readAutoBranches(ops).ids;
function autoAccepts(ops: OrderOps, branchId: number): Promise<boolean> {
  let known = autoBranches.get(ops.db);
  if (!known || known.generation !== generation) known = readAutoBranches(ops);
  return known.ids.then((ids) => ids.has(branchId));
}

/**
 * Every process follows the order events: a new order, or a change (its card payment arrived), of an
 * auto-accepting branch is accepted at once. With several processes each hears the event; the
 * lifecycle's version check lets one acceptance through and the others are refused (skipped).
 */
export function registerAutoAccept(app: FastifyInstance, ctx: AppContext) {
  const stop = ctx.events.subscribe((event) => {
    autoAccepts(ctx, event.branchId)
      .then((yes) => (yes ? autoAcceptOrder(ctx, event.orderId) : false))
      .catch((err) => app.log.error({ err, orderId: event.orderId }, 'auto-accept failed'));
  });
  app.addHook('onClose', async () => stop());
}
