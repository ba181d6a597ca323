import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rowsOf } from '../db/client';
import {
  brands, currencies, customerNotifications, notifications, orders, paymentSystems, payments, pushSubscriptions, refundRequests, refunds, users,
} from '../db/schema';
import type { AppConfig, Caller } from '../http/context';
import type { OrderEvents } from '../events/orderEvents';
import { filsToDecimal, toFils } from '../../domain/money';
import { NOT_ACCEPTED_IN_TIME, type OrderLifecycleEvent } from '../../machines/orderLifecycle';
import { refundNoticeText, type RefundNotice } from '../messages/refunds';
import { customerLanguage } from '../notify/orderPushes';
import type { OnlinePaymentProvider, RefundAnswer, RefundAsk } from './provider';
import { onlineProviderFor } from './index';
import { returnToWallet, WALLET_PROVIDER } from '../loyalty/walletPayment';

type OrderRecord = typeof orders.$inferSelect;
export type RefundRecord = typeof refunds.$inferSelect;

/**
 * Why a refund was decided: the branch rejected the paid order, the acceptance deadline did, a
 * refund request was approved, or the money arrived after the order was rejected.
 */
export const REFUND_CAUSES = ['rejected', 'deadline', 'refundRequest', 'paidAfterRejection'] as const;
export type RefundCause = (typeof REFUND_CAUSES)[number];
/**
 * pending → refunded | failed (a failed one goes back to pending when staff retry it); a cash
 * refund is `owed`: the branch hands the cash back, no provider is called.
 */
export const REFUND_STATUSES = ['pending', 'refunded', 'failed', 'owed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

// ─── deciding a refund (in the lifecycle's transaction) ──────────────────────

/** The money an order's lifecycle step gives back: everything left, or the approved request's amount. */
function refundDecidedBy(before: OrderRecord, after: OrderRecord, event: OrderLifecycleEvent, caller: Caller): { cause: RefundCause; whole: boolean } | null {
  if (after.payment !== 'paid') return null;
  if (after.status === 'rejected' && before.status !== 'rejected') {
    // Ends without being served: whatever the step, nothing is kept for it.
    if (event.type === 'order.reject') {
      return { cause: caller === null && event.reason === NOT_ACCEPTED_IN_TIME ? 'deadline' : 'rejected', whole: true };
    }
    return { cause: 'refundRequest', whole: true };
  }
  if (after.status === 'rejected' && before.payment !== 'paid') return { cause: 'paidAfterRejection', whole: true };
  if (after.refund === 'approved' && before.refund !== 'approved') return { cause: 'refundRequest', whole: false };
  return null;
}

/**
 * Called by transitionOrder (server/orders/transition.ts) in the transaction of every lifecycle
 * step: when the step ends a paid order without serving it, or approves a refund request, the
 * refund row is written here, so it commits or rolls back with the step and is never lost. The
 * amount is never more than the payment captured less what the order's other refunds give back.
 * A cash refund is `owed` at once; a wallet order's is `refunded` at once, by a ledger credit in the
 * same transaction (walletPayment.ts returnToWallet); any other waits for the refund worker (runDueRefunds).
 * Returns the row, or null when the step refunds nothing.
 */
export async function recordRefund(tx: Tx, before: OrderRecord, after: OrderRecord, event: OrderLifecycleEvent, caller: Caller): Promise<RefundRecord | null> {
  const decided = refundDecidedBy(before, after, event, caller);
  if (!decided) return null;
  const [paid] = await tx.select({ id: payments.id, provider: payments.provider, amount: payments.amount }).from(payments)
    .where(and(eq(payments.orderId, after.id), eq(payments.status, 'paid'))).orderBy(desc(payments.id)).limit(1);
  const [info] = await tx.select({ provider: paymentSystems.provider, currency: currencies.code })
    .from(paymentSystems).innerJoin(brands, eq(brands.id, after.brandId)).innerJoin(currencies, eq(currencies.id, brands.currencyId))
    .where(eq(paymentSystems.id, after.paymentSystemId));
  const [request] = decided.cause === 'refundRequest'
    ? await tx.select({ id: refundRequests.id, amount: refundRequests.amount, reason: refundRequests.reason }).from(refundRequests)
      .where(eq(refundRequests.orderId, after.id)).orderBy(desc(refundRequests.id)).limit(1)
    : [];
  const [{ given }] = await tx.select({ given: sql<string>`coalesce(sum(${refunds.amount}), 0)` }).from(refunds).where(eq(refunds.orderId, after.id));
  const captured = toFils(paid?.amount ?? after.total);
  const left = captured - toFils(given);
  const amount = Math.min(left, decided.whole || !request ? left : toFils(request.amount));
  if (amount <= 0) return null;
  const provider = paid?.provider ?? info.provider;
  const toWallet = provider === WALLET_PROVIDER;
  const status: RefundStatus = provider === 'cash' ? 'owed' : toWallet ? 'refunded' : 'pending';
  const [row] = await tx.insert(refunds).values({
    orderId: after.id, paymentId: paid?.id ?? null, refundRequestId: request?.id ?? null, provider, amount: filsToDecimal(amount),
    currency: info.currency, reason: request?.reason ?? after.statusReason ?? '', cause: decided.cause, status,
    ...(toWallet && { providerStatus: 'refunded', refundedAt: new Date(), lastMessage: 'Returned to the wallet.' }),
  }).onConflictDoNothing().returning();
  // The same order and cause twice cannot happen through the version-checked step; if it did, the first row stands.
  if (!row) return null;
  if (toWallet) await returnToWallet(tx, after, row, toFils(given) === 0);
  await notifyCustomer(tx, row, status === 'owed' ? 'owed' : toWallet ? 'returned' : 'returning');
  return row;
}

/**
 * The customer's inbox notification about their refund, in their language (customerLanguage), in
 * the same transaction as the change it tells of (each is written once: the row's step happens
 * once). The shared guest account gets none.
 */
async function notifyCustomer(tx: Tx, refund: RefundRecord, notice: RefundNotice) {
  const [o] = await tx.select({
    userId: orders.userId, brandId: orders.brandId, orderNumber: orders.orderNumber, isGuest: users.isGuest,
    own: users.language, brandLanguage: brands.defaultLanguage, method: paymentSystems.name, methodAr: paymentSystems.nameAr,
  }).from(orders).innerJoin(users, eq(users.id, orders.userId)).innerJoin(brands, eq(brands.id, orders.brandId))
    .innerJoin(paymentSystems, eq(paymentSystems.id, orders.paymentSystemId))
    .where(eq(orders.id, refund.orderId));
  if (!o || o.isGuest) return;
  const language = customerLanguage(o.own, o.brandLanguage);
  const { title, text } = refundNoticeText(notice, language, {
    orderNumber: o.orderNumber, amount: refund.amount, currency: refund.currency, method: language === 'ar' && o.methodAr ? o.methodAr : o.method,
  });
  // An order's notice (issue 27): pushed with the order's topic, 15 minutes, high urgency, to a customer who
  // subscribed (the push loop's sweep sends it after commit). Keyed per refund and step, as the step happens once.
  const [n] = await tx.insert(notifications).values({
    brandId: o.brandId, groupId: null, title, text, recipients: 1, orderId: refund.orderId, orderStatus: `refund-${refund.id}-${notice}`,
  }).returning({ id: notifications.id });
  const [subscribed] = await tx.select({ one: sql<number>`1` }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, o.userId)).limit(1);
  await tx.insert(customerNotifications).values({ notificationId: n.id, userId: o.userId, pushPending: !!subscribed });
}

// ─── giving the money back (the refund worker, after commit) ─────────────────

export interface RefundOps { db: Db; events: OrderEvents; config: AppConfig }

export interface RefundWorkOptions {
  /** The adapter of a provider name (default: server/payments onlineProviderFor); tests give a double. */
  providerFor?: (name: string, config: AppConfig) => RefundingProvider | null;
  /** How long a claimed refund is left to its worker before another may take it (a crash mid-call). */
  leaseMs?: number;
  /** Wait before the next provider call after `attempts` calls that did not settle it. */
  backoffMs?: (attempts: number) => number;
  /** Provider calls that throw (unreachable, 5xx) before the refund is marked failed. */
  maxUnreachable?: number;
  /** How often the worker looks for due refunds (default REFUND_SWEEP_MS). */
  everyMs?: number;
}

export const REFUND_SWEEP_MS = 5_000;
const LEASE_MS = 2 * 60_000;
/** 30 s, doubled per call, at most 30 min: a refund the provider holds as pending is asked about for as long as it takes. */
export const refundBackoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
const MAX_UNREACHABLE = 8;
const BATCH = 20;

/** What the worker needs of a provider: the refund half of OnlinePaymentProvider (cash has none). */
export type RefundingProvider = Pick<OnlinePaymentProvider, 'refund' | 'refundStatus'>;

/**
 * The idempotency key the provider is asked under: the payment's own reference (unique at the
 * provider, whichever database asks), the refund row and its retry. Every call for one attempt
 * repeats it, so a call cut off by a crash and asked again never refunds twice; a staff retry of a
 * failed refund (the provider refused it: nothing moved) asks under a new one.
 */
export const refundKey = (providerRef: string, refund: Pick<RefundRecord, 'id' | 'retries'>) => `${providerRef}:refund-${refund.id}-${refund.retries}`;

/**
 * Takes the pending refunds that are due, at most BATCH, and asks their provider. Safe with any
 * number of processes: a refund is claimed by one conditional statement (FOR UPDATE SKIP LOCKED),
 * which moves its next attempt a lease ahead, so nobody else takes it meanwhile; a process that
 * dies mid-call leaves it to be taken again after the lease, under the same key. The answer is
 * written only if the claim still holds (same attempt count, still pending). Returns how many were taken.
 */
export async function runDueRefunds(ops: RefundOps, opts: RefundWorkOptions = {}, now = new Date()): Promise<number> {
  const lease = new Date(now.getTime() + (opts.leaseMs ?? LEASE_MS));
  const claimed = rowsOf<{ id: number }>(await ops.db.execute(sql`
    update refunds r set attempts = r.attempts + 1, next_attempt_at = ${lease}, updated_at = ${now}
    from (select id from refunds where status = 'pending' and next_attempt_at <= ${now}
          order by next_attempt_at, id limit ${BATCH} for update skip locked) due
    where r.id = due.id
    returning r.id`));
  if (!claimed.length) return 0;
  const rows = await ops.db.select().from(refunds).where(inArray(refunds.id, claimed.map((c) => c.id)));
  for (const row of rows) await askProvider(ops, opts, row, now);
  return rows.length;
}

async function askProvider(ops: RefundOps, opts: RefundWorkOptions, row: RefundRecord, now: Date) {
  const provider = opts.providerFor ? opts.providerFor(row.provider, ops.config) : onlineProviderFor(row.provider, ops.config, 'refund');
  const [payment] = await ops.db.select({ providerRef: payments.providerRef }).from(payments)
    .where(row.paymentId ? eq(payments.id, row.paymentId) : eq(payments.orderId, row.orderId)).orderBy(desc(payments.id)).limit(1);
  let answer: RefundAnswer;
  let unreachable = false;
  if (!provider) {
    answer = { status: 'failed', refundRef: null, message: `No online adapter for the payment provider '${row.provider}'.` };
  } else if (!payment) {
    answer = { status: 'failed', refundRef: null, message: 'The order has no payment at the provider to refund.' };
  } else {
    const ask: RefundAsk = {
      providerRef: payment.providerRef, paymentId: null, amount: row.amount, currency: row.currency,
      key: refundKey(payment.providerRef, row), reason: row.reason || row.cause,
    };
    try {
      answer = row.providerStatus === 'pending' ? await provider.refundStatus(ask, row.providerRefundRef) : await provider.refund(ask);
    } catch (err) {
      unreachable = true;
      const message = err instanceof Error ? err.message : String(err);
      answer = row.attempts >= (opts.maxUnreachable ?? MAX_UNREACHABLE)
        ? { status: 'failed', refundRef: null, message: `The provider could not be reached (${row.attempts} tries): ${message}` }
        : { status: 'pending', refundRef: null, message: `The provider could not be reached: ${message}` };
    }
  }
  const settled = await ops.db.transaction(async (tx) => {
    const [updated] = await tx.update(refunds).set({
      status: answer.status,
      // An unreachable provider said nothing: the next call asks the same thing again.
      ...(unreachable ? {} : { providerStatus: answer.status, providerRefundRef: answer.refundRef ?? row.providerRefundRef }),
      lastMessage: answer.message,
      updatedAt: now,
      ...(answer.status === 'refunded' ? { refundedAt: now } : {}),
      ...(answer.status === 'pending' ? { nextAttemptAt: new Date(now.getTime() + (opts.backoffMs ?? refundBackoffMs)(row.attempts)) } : {}),
    }).where(and(eq(refunds.id, row.id), eq(refunds.status, 'pending'), eq(refunds.attempts, row.attempts))).returning();
    if (updated?.status === 'refunded') await notifyCustomer(tx, updated, 'returned');
    return updated;
  });
  if (settled && settled.status !== 'pending') await publishChange(ops, row.orderId);
}

/** The order's screens (the customer's tracker, the console) read it again: its refund moved. */
async function publishChange(ops: Pick<RefundOps, 'db' | 'events'>, orderId: number) {
  const [o] = await ops.db.select({ branchId: orders.branchId, brandId: orders.brandId }).from(orders).where(eq(orders.id, orderId));
  if (o) await ops.events.publish({ type: 'order.changed', orderId, branchId: o.branchId, brandId: o.brandId }).catch(() => {});
}

/**
 * Staff retry of a failed refund: the same row goes back to pending under a new idempotency key
 * (retries + 1), due at once. Only a failed refund moves (conditional update), so two retries at
 * the same moment make one attempt. Returns the row, or null when it was not failed.
 */
export async function retryRefund(ops: Pick<RefundOps, 'db' | 'events'>, refundId: number, caller: Caller, now = new Date()): Promise<RefundRecord | null> {
  const [row] = await ops.db.update(refunds).set({
    status: 'pending', retries: sql`${refunds.retries} + 1`, attempts: 0, providerStatus: null, providerRefundRef: null,
    lastMessage: null, nextAttemptAt: now, updatedAt: now, retriedBy: caller?.id ?? null,
  }).where(and(eq(refunds.id, refundId), eq(refunds.status, 'failed'))).returning();
  if (row) {
    wakeRefundWorkers();
    await publishChange(ops, row.orderId);
  }
  return row ?? null;
}

/**
 * Staff mark an owed cash refund as handed back at the branch: owed → refunded, with who and when
 * (handed_back_by, refunded_at), and the customer's notice, in one transaction. Only an owed refund
 * moves (conditional update), so a double click, or two staff at once, hand it back once: the
 * second finds it no longer owed. Returns the row, or null when it was not owed.
 */
export async function handBackRefund(ops: Pick<RefundOps, 'db' | 'events'>, refundId: number, caller: Caller, now = new Date()): Promise<RefundRecord | null> {
  const row = await ops.db.transaction(async (tx) => {
    const [updated] = await tx.update(refunds).set({
      status: 'refunded', providerStatus: 'refunded', refundedAt: now, updatedAt: now, handedBackBy: caller?.id ?? null,
      lastMessage: 'Handed back at the branch.',
    }).where(and(eq(refunds.id, refundId), eq(refunds.status, 'owed'))).returning();
    if (updated) await notifyCustomer(tx, updated, 'handedBack');
    return updated;
  });
  if (row) await publishChange(ops, row.orderId);
  return row ?? null;
}

// ─── the worker's timer ──────────────────────────────────────────────────────

const sleepers = new Set<() => void>();
/** Tells this process's refund workers to look now (a refund was just committed) instead of at their next tick. */
export function wakeRefundWorkers() {
  for (const wake of sleepers) wake();
}

export interface RefundWork { stop(): Promise<void> }

/**
 * The refund worker of this process, as the other timed work (server/orders/deadline.ts): a round
 * now, every `everyMs`, and when woken; one round at a time. Nothing lives in memory, so a restart
 * finds the pending refunds again.
 */
export function startRefundWork(ops: RefundOps, opts: RefundWorkOptions & { onError?: (err: unknown) => void } = {}): RefundWork {
  let round: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (round) { again = true; return; }
    round = (async () => {
      // A full batch means more may be due: go again at once.
      while (!stopped && (await runDueRefunds(ops, opts)) >= BATCH);
    })().catch((err) => opts.onError?.(err)).finally(() => {
      round = null;
      if (again) { again = false; tick(); }
    });
  };
  const timer = setInterval(tick, opts.everyMs ?? REFUND_SWEEP_MS);
  timer.unref();
  sleepers.add(tick);
  tick();
  return {
    async stop() {
      stopped = true;
      sleepers.delete(tick);
      clearInterval(timer);
      await round;
    },
  };
}

// ─── reading refunds (the order's screens) ───────────────────────────────────

/** The refunds of some orders, oldest first, for the customer's tracker and the staff screens. */
export async function refundsOfOrders(db: Db, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db.select().from(refunds).where(inArray(refunds.orderId, orderIds)).orderBy(refunds.id);
}
