import { and, desc, eq, inArray, like, sql } from 'drizzle-orm';
import { orders, paymentInbox, payments } from '../db/schema';
import { ApiError } from '../http/envelope';
import type { AppConfig } from '../http/context';
import { transitionOrder, type OrderOps } from '../orders/transition';
import { toFils } from '../../domain/money';
import { onlineProviderFor } from './index';
import { GatewayUnavailable } from './gateway';
import type { OnlinePaymentProvider } from './provider';

/**
 * What a gateway payment becomes (issue 21). Nothing marks a payment paid but the provider's own
 * status inquiry: not the customer's return from the page, not a callback (which only says
 * "ask now"). Callbacks, returns and the reconciliation job all come here, so the rules are one:
 * - paid (and for the amount asked) → payment paid, then onPaymentPaid; a paid answer wins over an
 *   earlier failure (a customer may retry on the same page), and nothing moves a paid payment back;
 * - paid for another amount → 'mismatch', for staff to check: the order is not marked paid;
 * - failed → failed (a later paid answer still wins);
 * - pending → pending, or expired once older than the reconciliation's limit.
 */

export type PaymentRow = typeof payments.$inferSelect;
export interface SettleOps extends OrderOps { config: AppConfig }
export interface SettleOptions {
  now?: Date;
  /** A payment still pending at the provider this long after it was started is expired (the reconciliation job's 60 minutes). */
  expireAfterMs?: number;
  /** The adapter of a provider name (default onlineProviderFor); tests give a double. */
  providerFor?: (name: string, config: AppConfig) => OnlinePaymentProvider | null;
}

/**
 * The one step for "a payment became paid": the order is marked paid through its lifecycle (a
 * repeat when it already is). Money received is a fact, so a rejected order is marked paid too;
 * the lifecycle's step then decides its refund (server/payments/refunds.ts recordRefund, cause
 * paidAfterRejection). Retried when a staff change races it (409), as the sandbox does.
 */
export async function onPaymentPaid(ops: OrderOps, payment: Pick<PaymentRow, 'orderId'>) {
  for (let attempt = 1; ; attempt++) {
    try {
      await transitionOrder(ops, payment.orderId, { type: 'order.markPaid' }, null);
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || attempt >= 3) throw err;
    }
  }
}

/** Statuses a provider's paid answer may still turn into paid. */
const NOT_YET_PAID = ['pending', 'failed', 'expired'];

/**
 * Asks the provider about one payment and records the answer (see above). Returns the payment as
 * it is after. Throws GatewayUnavailable when the provider cannot be asked: nothing is written.
 */
export async function settlePayment(ops: SettleOps, payment: PaymentRow, opts: SettleOptions = {}): Promise<PaymentRow> {
  const provider = (opts.providerFor ?? onlineProviderFor)(payment.provider, ops.config);
  if (!provider) return payment;
  const answer = await provider.inquire(payment.providerRef);
  const now = opts.now ?? new Date();
  const seen = {
    providerPaymentId: answer.paymentId ?? payment.providerPaymentId, trackId: answer.trackId ?? payment.trackId,
    result: answer.result ?? payment.result, checkedAt: now, updatedAt: now,
  };
  const move = (set: Partial<PaymentRow>, from: string[]) => ops.db.update(payments).set({ ...seen, ...set })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, from)));

  if (answer.status === 'paid') {
    if (answer.amount !== null && toFils(answer.amount) !== toFils(payment.amount)) {
      await move({ status: 'mismatch', result: `Paid ${answer.amount} where ${payment.amount} was asked${answer.result ? ` (${answer.result})` : ''}` }, NOT_YET_PAID);
    } else {
      await move({ status: 'paid', paidAt: answer.paidAt ?? now }, NOT_YET_PAID);
    }
  } else if (answer.status === 'failed') {
    await move({ status: 'failed' }, ['pending']);
  } else if (opts.expireAfterMs !== undefined && now.getTime() - payment.createdAt.getTime() >= opts.expireAfterMs) {
    await move({ status: 'expired', result: answer.result ?? 'No payment within the time allowed' }, ['pending']);
  } else {
    await move({}, ['pending']);
  }
  const [after] = await ops.db.select().from(payments).where(eq(payments.id, payment.id));
  // Always, when paid: a repeat is harmless, and it heals a first attempt cut off after the payment's update.
  if (after.status === 'paid') await onPaymentPaid(ops, after);
  return after;
}

// ─── callbacks: the inbox ────────────────────────────────────────────────────

export type InboxRow = typeof paymentInbox.$inferSelect;
/** After a failed attempt (the provider could not be asked), the inbox row is taken up again this much later by the reconciliation job. */
export const INBOX_RETRY_MS = 30_000;

/**
 * A verified callback: stored once under (gateway, event key), then acted on. A retried callback
 * finds its row: processed, it changes nothing; not yet processed (a crash, or the provider could
 * not be asked), it is acted on now. Returns the inbox row as it is after.
 */
export async function receiveCallback(ops: SettleOps, gateway: string, eventKey: string, key: string, payload: unknown): Promise<InboxRow> {
  await ops.db.insert(paymentInbox).values({ provider: gateway, eventKey, providerRef: key, payload }).onConflictDoNothing();
  const [row] = await ops.db.select().from(paymentInbox).where(and(eq(paymentInbox.provider, gateway), eq(paymentInbox.eventKey, eventKey)));
  if (row.processedAt) return row;
  return processInbox(ops, row);
}

/** Acts on one stored callback: the payment it names is settled by inquiry; the row is marked processed once that is done. */
export async function processInbox(ops: SettleOps, row: InboxRow, opts: SettleOptions = {}): Promise<InboxRow> {
  const now = opts.now ?? new Date();
  const [payment] = await ops.db.select().from(payments)
    .where(and(like(payments.provider, `${row.provider}:%`), sql`split_part(${payments.providerRef}, '~', 1) = ${row.providerRef}`))
    .orderBy(desc(payments.id)).limit(1);
  let outcome: string;
  try {
    outcome = payment ? (await settlePayment(ops, payment, opts)).status : 'unknown payment';
  } catch (err) {
    if (!(err instanceof GatewayUnavailable)) throw err;
    const [later] = await ops.db.update(paymentInbox).set({ outcome: err.message, nextAttemptAt: new Date(now.getTime() + INBOX_RETRY_MS) })
      .where(eq(paymentInbox.id, row.id)).returning();
    return later;
  }
  const [done] = await ops.db.update(paymentInbox).set({ processedAt: now, outcome })
    .where(eq(paymentInbox.id, row.id)).returning();
  return done;
}

// ─── the customer's return ───────────────────────────────────────────────────

/**
 * Back from the provider's page: the order's latest payment with this gateway is asked about (the
 * return itself proves nothing). Answers the payment as it is after; unchanged when the provider
 * cannot be asked (the callback or the reconciliation job will settle it).
 */
export async function settleReturn(ops: SettleOps, gateway: string, orderId: number) {
  const [payment] = await ops.db.select().from(payments)
    .where(and(eq(payments.orderId, orderId), like(payments.provider, `${gateway}:%`))).orderBy(desc(payments.id)).limit(1);
  if (!payment) return null;
  if (payment.status === 'paid') return payment;
  try {
    return await settlePayment(ops, payment);
  } catch (err) {
    if (err instanceof GatewayUnavailable) return payment;
    throw err;
  }
}

/** The order's tracking hash, for the redirect of a verified return. */
export async function orderHashOf(ops: SettleOps, orderId: number) {
  const [o] = await ops.db.select({ ohash: orders.ohash }).from(orders).where(eq(orders.id, orderId));
  return o?.ohash ?? null;
}

