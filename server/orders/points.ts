import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { customerWallets, walletLedger } from '../db/schema';
import type { OrderRecord } from './transition';

export const POINTS_RETURNED_REASON = 'Points returned';

/**
 * Gives a customer back the points an order spent when that order is rejected or its refund is
 * approved (docs/decisions.md). At most once per order: the ledger row is the proof, and the
 * caller's transaction holds the order row, so two returns cannot race.
 */
export async function returnRedeemedPoints(tx: Tx, order: OrderRecord) {
  if (order.pointsRedeemed <= 0) return;
  const [already] = await tx.select({ id: walletLedger.id }).from(walletLedger)
    .where(and(eq(walletLedger.orderId, order.id), sql`${walletLedger.pointsDelta} > 0`)).limit(1);
  if (already) return;
  await tx.update(customerWallets)
    .set({ points: sql`${customerWallets.points} + ${order.pointsRedeemed}` })
    .where(and(eq(customerWallets.userId, order.userId), eq(customerWallets.brandId, order.brandId)));
  await tx.insert(walletLedger).values({
    userId: order.userId, brandId: order.brandId, orderId: order.id, pointsDelta: order.pointsRedeemed,
    reason: `${POINTS_RETURNED_REASON} for order ${order.orderNumber}`,
  });
}

/** The lifecycle steps that undo a sale: the order is rejected, or its refund is approved. */
export const undoesSale = (before: OrderRecord, after: OrderRecord) =>
  (after.status === 'rejected' && before.status !== 'rejected') || (after.refund === 'approved' && before.refund !== 'approved');
