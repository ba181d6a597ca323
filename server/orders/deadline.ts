import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { branches, orders } from '../db/schema';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';
import { acceptWaitingOrders, refreshAutoAcceptBranches } from '../services/operations/autoAccept';
import { trySystemStep, type OrderOps } from './transition';
import { endExpiredBusyModes } from '../services/branch/busy';
import { startRefundWork, type RefundOps, type RefundWorkOptions } from '../payments/refunds';
import { JOB_BATCH, startJobRunner, type Job } from '../jobs/runner';
import { fireDueOrders } from './fire';

/** How often each server process looks for late orders: a late order is rejected at most this much after its deadline. */
export const DEADLINE_SWEEP_MS = 5_000;

/**
 * Rejects, with the reason 'Not accepted in time', every order still pending its branch's
 * acceptance deadline (branches.acceptance_deadline_minutes, domain/orderSettings.ts) after it
 * was placed, or after it fired for an order for later (orders.fired_at); `deadlineMs`, when given, holds for every branch instead (browser tests). Each rejection is an ordinary lifecycle step
 * (trySystemStep, as the system): the machine decides, the redeemed points come back in the same
 * transaction, the live feed and the customer's tracker hear of it.
 *
 * Exactly once with any number of processes: the step is a version-checked update, so when two
 * processes (or a process and an operator accepting at the last second) reach the same order, one
 * update wins and the other is judged again on the new state, where the machine refuses it (409,
 * skipped here). Nothing lives in memory, so a restart simply finds the late orders again.
 * Returns the ids this call rejected.
 */
export async function rejectLateOrders(ops: OrderOps, now = new Date(), deadlineMs?: number): Promise<number[]> {
  const deadline = deadlineMs === undefined
    ? sql`make_interval(mins => ${branches.acceptanceDeadlineMinutes})`
    : sql`make_interval(secs => ${deadlineMs / 1000})`;
  const late = await ops.db.select({ id: orders.id }).from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    // An order for later waits from its fire time, not its placement (issue 25).
    .where(and(eq(orders.status, 'pending'), lt(sql`coalesce(${orders.firedAt}, ${orders.createdAt})`, sql`${now.toISOString()}::timestamptz - ${deadline}`)))
    .orderBy(asc(orders.createdAt)).limit(JOB_BATCH);
  const rejected: number[] = [];
  for (const { id } of late) {
    // Accepted or rejected meanwhile (by staff or another process): nothing is left to do.
    if (await trySystemStep(ops, id, { type: 'order.reject', reason: NOT_ACCEPTED_IN_TIME })) rejected.push(id);
  }
  return rejected;
}

export interface TimedWork { stop(): Promise<void> }

/**
 * The timed work of live orders, on the one job runner (server/jobs/runner.ts), now and every
 * DEADLINE_SWEEP_MS until stopped, one round at a time per process, in this order: busy modes whose
 * time is up switch themselves off (server/services/branch/busy.ts); orders for later whose fire
 * time has come reach the kitchen (server/orders/fire.ts); orders of auto-accepting branches that
 * still wait are accepted (server/services/operations/autoAccept.ts), a just-fired one included;
 * late orders are rejected (rejectLateOrders), after auto-accept, so an auto-accepting branch's
 * order is never rejected for waiting. Beside it, on its own timer, the refund worker gives back
 * the money of refunds decided by the lifecycle (server/payments/refunds.ts), so a slow provider
 * never delays a rejection. All are safe with any number of processes.
 */
export interface TimedWorkOptions {
  /** How often a round runs (default DEADLINE_SWEEP_MS). */
  everyMs?: number;
  /** How long an order may stay pending, for every branch (default: each branch's own deadline); browser tests shorten it to watch a rejection happen. */
  deadlineMs?: number;
  /** The refund worker's options (its own period, backoff; tests give a provider double). */
  refunds?: RefundWorkOptions;
}

/** The order jobs of one round, in their order (exported for tests that run a round by hand). */
export const orderJobs = (ops: OrderOps, opts: Pick<TimedWorkOptions, 'deadlineMs'> = {}): Job[] => [
  { name: 'busy auto-off', run: async () => (await endExpiredBusyModes(ops.db)).length },
  { name: 'fire orders for later', batch: JOB_BATCH, run: async (now) => (await fireDueOrders(ops, now)).length },
  {
    name: 'auto-accept', batch: JOB_BATCH,
    run: async () => {
      await refreshAutoAcceptBranches(ops);
      return (await acceptWaitingOrders(ops)).length;
    },
  },
  { name: 'acceptance deadline', batch: JOB_BATCH, run: async (now) => (await rejectLateOrders(ops, now, opts.deadlineMs)).length },
];

export function startTimedWork(ops: OrderOps & RefundOps, opts: TimedWorkOptions & { onError?: (err: unknown, job?: string) => void } = {}): TimedWork {
  const runner = startJobRunner(orderJobs(ops, opts), { everyMs: opts.everyMs ?? DEADLINE_SWEEP_MS, onError: opts.onError });
  const refunds = startRefundWork(ops, { ...opts.refunds, onError: opts.onError });
  return { stop: async () => { await Promise.all([runner.stop(), refunds.stop()]); } };
}
