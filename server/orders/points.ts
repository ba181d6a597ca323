import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { orderItems, rewardPrograms, users, walletLedger } from '../db/schema';
import { lockedBalance, orderLedgerKey, postToLedger, type Account } from '../loyalty/ledger';
import { toFils } from '../../domain/money';
import { returnFreeItem } from '../loyalty/freeItems';
import type { OrderRecord } from './row';
import type { RefundRecord } from '../payments/refunds';

export const POINTS_RETURNED_REASON = 'Points returned';

/**
 * What an order's lifecycle does to the customer's loyalty balances (docs/decisions.md "Loyalty"),
 * called by transitionOrder (server/orders/transition.ts) in the transaction of every status
 * change, with the order row before and after it:
 * - the order is closed: it earns points (the branch's points program) and punches (its purchases
 *   program), and punches that reach the target become free items; a no-show earns nothing;
 * - the sale is undone (rejected, or its refund approved): the points and the free item it spent come back;
 * - its refund is approved: what it earned is taken back, in proportion to the money the refund
 *   gives back (`refund`, the row the same step wrote; none: all of it).
 * Each step has its own ledger key per order, so it happens at most once however often it is asked.
 */
export async function applyLoyalty(tx: Tx, before: OrderRecord, after: OrderRecord, refund: Pick<RefundRecord, 'amount'> | null = null) {
  if (closesSale(before, after)) await earnRewards(tx, after);
  if (undoesSale(before, after)) {
    await returnRedeemedPoints(tx, after);
    await returnFreeItem(tx, after);
  }
  if (after.refund === 'approved' && before.refund !== 'approved') await takeBackEarned(tx, after, refund);
}

/** A sale is closed when the order is closed, except by a no-show: the customer never came for it, so it earns nothing. */
const closesSale = (before: OrderRecord, after: OrderRecord) => after.status === 'closed' && before.status !== 'closed' && after.arrival !== 'noShow';

/** The lifecycle steps that undo a sale: the order is rejected, or its refund is approved. */
export const undoesSale = (before: OrderRecord, after: OrderRecord) =>
  (after.status === 'rejected' && before.status !== 'rejected') || (after.refund === 'approved' && before.refund !== 'approved');

/** Gives back the points an order spent, once (its ledger key). */
export async function returnRedeemedPoints(tx: Tx, order: OrderRecord) {
  if (order.pointsRedeemed <= 0) return;
  await postToLedger(tx, {
    userId: order.userId, brandId: order.brandId, account: 'points', amount: order.pointsRedeemed,
    reason: `${POINTS_RETURNED_REASON} for order ${order.orderNumber}`,
    reference: { type: 'order', id: order.id }, createdBy: null, key: orderLedgerKey(order.id, 'points-returned'),
  });
}

async function isGuest(tx: Tx, userId: number) {
  const [user] = await tx.select({ isGuest: users.isGuest }).from(users).where(eq(users.id, userId));
  return !user || user.isGuest;
}

/** Points per KD paid (whole points, rounded down) and a punch per qualifying product bought. */
async function earnRewards(tx: Tx, order: OrderRecord) {
  if (await isGuest(tx, order.userId)) return;
  const programs = await tx.select().from(rewardPrograms)
    .where(and(eq(rewardPrograms.branchId, order.branchId), eq(rewardPrograms.isActive, true), inArray(rewardPrograms.kind, ['points', 'purchases'])));
  const entry = (account: Account, amount: number, step: string, reason: string) => postToLedger(tx, {
    userId: order.userId, brandId: order.brandId, account, amount, reason: `${reason} (order ${order.orderNumber})`,
    reference: { type: 'order', id: order.id }, createdBy: null, key: orderLedgerKey(order.id, step),
  });
  for (const program of programs) {
    if (program.kind === 'points') {
      const points = Math.floor((toFils(order.total) * Number(program.pointsPerKd ?? 0)) / 1000);
      if (points > 0) await entry('points', points, 'points-earned', `Points earned: ${program.name}`);
    } else {
      const ids = program.productIds ?? [];
      if (!ids.length || !program.target) continue;
      const [{ punches }] = await tx.select({ punches: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` }).from(orderItems)
        .where(and(eq(orderItems.orderId, order.id), eq(orderItems.isRedeem, false), inArray(orderItems.productId, ids)));
      if (punches <= 0) continue;
      const posted = await entry('punches', punches, 'punches-earned', `Punches earned: ${program.name}`);
      // Reaching the target turns the punches into free items in this same transaction.
      const items = Math.floor(posted.balance / program.target);
      if (posted.applied && items > 0) {
        await entry('punches', -items * program.target, 'punches-to-free-items', `${items * program.target} punches became ${items} free item(s)`);
        await entry('freeItems', items, 'free-items-earned', `Free item(s) earned: ${program.name}`);
      }
    }
  }
}

/**
 * The share of what an order earned that a refund takes back: earned × refunded / total, rounded
 * down (a partial refund leaves the customer the part of a point it cannot split); all of it for a
 * refund of the whole total, a free order, or an approval that gave no money back (`refund` null).
 */
export function earnedTakenBack(earned: number, orderTotal: string, refund: Pick<RefundRecord, 'amount'> | null): number {
  const total = toFils(orderTotal);
  if (!refund || total <= 0) return earned;
  return Math.min(earned, Math.floor((earned * toFils(refund.amount)) / total));
}

/**
 * A refunded order's earned points and punches are taken back, once, in proportion to the
 * refund (earnedTakenBack). What the customer has already spent cannot be taken: the take-back
 * stops at the balance (never below zero), and a free item already made from the punches stays
 * (docs/decisions.md "Loyalty").
 */
async function takeBackEarned(tx: Tx, order: OrderRecord, refund: Pick<RefundRecord, 'amount'> | null) {
  const earned = await tx.select({ key: walletLedger.idempotencyKey, amount: walletLedger.amount }).from(walletLedger)
    .where(inArray(walletLedger.idempotencyKey, [orderLedgerKey(order.id, 'points-earned'), orderLedgerKey(order.id, 'punches-earned')]));
  for (const row of earned) {
    const account: Account = row.key.endsWith('points-earned') ? 'points' : 'punches';
    const balance = await lockedBalance(tx, order.userId, order.brandId, account);
    const amount = Math.min(earnedTakenBack(Number(row.amount), order.total, refund), balance);
    await postToLedger(tx, {
      userId: order.userId, brandId: order.brandId, account, amount: -amount,
      reason: `${account === 'points' ? 'Points' : 'Punches'} taken back: order ${order.orderNumber} refunded`,
      reference: { type: 'order', id: order.id }, createdBy: null, key: orderLedgerKey(order.id, `${account}-taken-back`),
    });
  }
}
