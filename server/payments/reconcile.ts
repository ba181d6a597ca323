import { and, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import { rowsOf } from '../db/client';
import { orders, paymentInbox, payments } from '../db/schema';
import { GatewayUnavailable } from './gateway';
import { onPaymentPaid, processInbox, settlePayment, type SettleOps, type SettleOptions } from './settle';

/**
 * The reconciliation job (issue 21): every payment still pending at a gateway RECONCILE_AFTER_MS
 * after it was started is asked about (status inquiry) and marked paid, failed, or expired once
 * EXPIRE_AFTER_MS old, through the same step as a callback (server/payments/settle.ts). It also
 * takes up callbacks stored but not acted on (a crash, an unreachable provider), and heals a paid
 * payment whose order was not marked paid (a crash between the two). Safe with any number of
 * processes: each row is claimed by one conditional statement (FOR UPDATE SKIP LOCKED) that moves
 * its next look a lease ahead; nothing lives in memory, so a restart finds them again.
 */
export const RECONCILE_SWEEP_MS = 30_000;
export const RECONCILE_AFTER_MS = 15 * 60_000;
export const EXPIRE_AFTER_MS = 60 * 60_000;
/** Between two inquiries about the same pending payment. */
export const RECHECK_MS = 5 * 60_000;
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
/** Providers with nothing to ask (cash) or no status inquiry (the embedded sandbox settles on its own page). */
const NOT_ASKED = ['cash', 'sandbox'];

export interface ReconcileOptions extends Pick<SettleOptions, 'providerFor'> {
  /** How often a round runs (default RECONCILE_SWEEP_MS). */
  everyMs?: number;
  /** Pending this long before the provider is asked (default 15 min). */
  afterMs?: number;
  /** Pending at the provider this long: expired (default 60 min). */
  expireAfterMs?: number;
  /** The clock (tests). */
  now?: () => Date;
}

export interface ReconcileRound { inbox: number; asked: number; healed: number; unreachable: number }

/** One round; answers what it did. */
export async function reconcilePayments(ops: SettleOps, opts: ReconcileOptions = {}): Promise<ReconcileRound> {
  const now = opts.now?.() ?? new Date();
  const lease = new Date(now.getTime() + LEASE_MS);
  const round: ReconcileRound = { inbox: 0, asked: 0, healed: 0, unreachable: 0 };
  const settle = { now, providerFor: opts.providerFor, expireAfterMs: opts.expireAfterMs ?? EXPIRE_AFTER_MS };

  // 1. Callbacks stored and not yet acted on.
  const inbox = rowsOf<{ id: number }>(await ops.db.execute(sql`
    update payment_inbox i set attempts = i.attempts + 1, next_attempt_at = ${lease}
    from (select id from payment_inbox where processed_at is null and next_attempt_at <= ${now}
          order by next_attempt_at, id limit ${BATCH} for update skip locked) due
    where i.id = due.id returning i.id`));
  if (inbox.length) {
    for (const row of await ops.db.select().from(paymentInbox).where(inArray(paymentInbox.id, inbox.map((r) => r.id)))) {
      await processInbox(ops, row, settle);
      round.inbox++;
    }
  }

  // 2. Payments pending past the wait.
  const startedBefore = new Date(now.getTime() - (opts.afterMs ?? RECONCILE_AFTER_MS));
  const due = rowsOf<{ id: number }>(await ops.db.execute(sql`
    update payments p set next_check_at = ${lease}
    from (select id from payments where status = 'pending' and created_at <= ${startedBefore}
            and provider not in (${sql.join(NOT_ASKED.map((n) => sql`${n}`), sql`, `)})
            and coalesce(next_check_at, created_at) <= ${now}
          order by created_at, id limit ${BATCH} for update skip locked) due
    where p.id = due.id returning p.id`));
  if (due.length) {
    for (const payment of await ops.db.select().from(payments).where(inArray(payments.id, due.map((r) => r.id)))) {
      try {
        const after = await settlePayment(ops, payment, settle);
        if (after.status === 'pending') await ops.db.update(payments).set({ nextCheckAt: new Date(now.getTime() + RECHECK_MS) }).where(eq(payments.id, payment.id));
        round.asked++;
      } catch (err) {
        if (!(err instanceof GatewayUnavailable)) throw err;
        round.unreachable++; // asked again after the lease
      }
    }
  }

  // 3. Paid payments of orders still unpaid.
  const unhealed = await ops.db.select({ orderId: payments.orderId }).from(payments).innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.status, 'paid'), eq(orders.payment, 'unpaid'), notInArray(payments.provider, NOT_ASKED), lte(payments.updatedAt, now))).limit(BATCH);
  for (const p of unhealed) {
    await onPaymentPaid(ops, p);
    round.healed++;
  }
  return round;
}

export interface Reconciliation { stop(): Promise<void>; runNow(): Promise<void> }

/** The job of this process, as the other timed work (server/orders/deadline.ts): a round now, then every `everyMs`, one round at a time. */
export function startReconciliation(ops: SettleOps, opts: ReconcileOptions & { onError?: (err: unknown) => void } = {}): Reconciliation {
  let round: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped) return Promise.resolve();
    round ??= (async () => {
      // A full batch means more may be waiting: go again at once.
      for (;;) {
        const r = await reconcilePayments(ops, opts);
        if (stopped || (r.inbox < BATCH && r.asked + r.unreachable < BATCH)) break;
      }
    })().catch((err) => opts.onError?.(err)).finally(() => { round = null; });
    return round;
  };
  const timer = setInterval(tick, opts.everyMs ?? RECONCILE_SWEEP_MS);
  timer.unref();
  void tick();
  return {
    async runNow() { await round; await tick(); },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
