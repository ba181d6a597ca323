import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { customerWallets, rewardPrograms, walletLedger } from '../db/schema';
import { badRequest } from '../http/envelope';
import { orderLedgerKey, postToLedger } from './ledger';

/**
 * A free item taken at checkout (docs/decisions.md "Loyalty: free item at checkout"). Free items
 * are earned from a branch's purchases collection; one of them pays for one unit of one of that
 * program's products. The check is made when the order is planned (a clear 400 before anything is
 * written) and again by the ledger's conditional update when it is saved, so orders placed at the
 * same moment can never take the same free item twice.
 */
export const FREE_ITEM_TEXT = {
  guest: 'Please log in to take a free item.',
  none: 'You do not have a free item to take.',
  onlyOne: 'Only one free item can be taken per order.',
  quantity: (name: string) => `A free item is one ${name}: please order it on its own line with quantity 1.`,
  notQualifying: (name: string) => `${name} cannot be taken as a free item at this branch.`,
} as const;

export const FREE_ITEM_SPENT = 'free-item-spent';
export const FREE_ITEM_RETURNED = 'free-item-returned';

/** The products a free item may be taken as at a branch: its active purchases collection's. */
export async function freeItemProducts(db: Db | Tx, branchId: number): Promise<number[]> {
  const [program] = await db.select({ productIds: rewardPrograms.productIds }).from(rewardPrograms)
    .where(and(eq(rewardPrograms.branchId, branchId), eq(rewardPrograms.kind, 'purchases'), eq(rewardPrograms.isActive, true)));
  return program?.productIds ?? [];
}

/**
 * Checks the free-item lines of an order before it is written: a registered customer, one line,
 * quantity 1, a qualifying product, and a free item in the balance. Throws the 400 to show.
 */
export async function checkFreeItemLines(db: Db, caller: { id: number; isGuest: boolean }, brandId: number, branchId: number,
  lines: { productId: number; name: string; quantity: number; redeemItem: boolean }[]) {
  const free = lines.filter((l) => l.redeemItem);
  if (!free.length) return;
  if (caller.isGuest) throw badRequest(FREE_ITEM_TEXT.guest);
  if (free.length > 1) throw badRequest(FREE_ITEM_TEXT.onlyOne);
  const [line] = free;
  if (line.quantity !== 1) throw badRequest(FREE_ITEM_TEXT.quantity(line.name));
  if (!(await freeItemProducts(db, branchId)).includes(line.productId)) throw badRequest(FREE_ITEM_TEXT.notQualifying(line.name));
  const [wallet] = await db.select({ freeItems: customerWallets.freeItems }).from(customerWallets)
    .where(and(eq(customerWallets.userId, caller.id), eq(customerWallets.brandId, brandId)));
  if ((wallet?.freeItems ?? 0) < 1) throw badRequest(FREE_ITEM_TEXT.none);
}

/** Spends the order's free item in the order's transaction; its key is the order's, so it happens once. */
export function spendFreeItem(tx: Db | Tx, order: { id: number; orderNumber: string; userId: number; brandId: number }) {
  return postToLedger(tx, {
    userId: order.userId, brandId: order.brandId, account: 'freeItems', amount: -1, reason: `Free item taken with order ${order.orderNumber}`,
    reference: { type: 'order', id: order.id }, createdBy: order.userId, key: orderLedgerKey(order.id, FREE_ITEM_SPENT), refusal: FREE_ITEM_TEXT.none,
  });
}

/**
 * Gives back the free item an order took, once, when the sale is undone. The spend's own ledger
 * row is the proof that there is something to give back.
 */
export async function returnFreeItem(tx: Tx, order: { id: number; orderNumber: string; userId: number; brandId: number }) {
  const [spent] = await tx.select({ id: walletLedger.id }).from(walletLedger)
    .where(eq(walletLedger.idempotencyKey, orderLedgerKey(order.id, FREE_ITEM_SPENT)));
  if (!spent) return;
  await postToLedger(tx, {
    userId: order.userId, brandId: order.brandId, account: 'freeItems', amount: 1, reason: `Free item returned for order ${order.orderNumber}`,
    reference: { type: 'order', id: order.id }, createdBy: null, key: orderLedgerKey(order.id, FREE_ITEM_RETURNED),
  });
}
