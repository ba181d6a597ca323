import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { orderItems, printJobs, printers, productSubtypes, products } from '../db/schema';
import { uniqueViolation } from '../db/uniqueViolation';

export type PrinterRow = typeof printers.$inferSelect;
export type PrintJobRow = typeof printJobs.$inferSelect;

/** The kind of the ticket an accepted order prints by itself; a reprint is 'reprint-<n>'. */
export const TICKET = 'ticket';

/** The printers of a branch that print at least one of an order's items (a printer naming no product type prints all). */
async function printersForOrder(db: Db | Tx, orderId: number, branchId: number, printerId?: number) {
  const branchPrinters = await db.select({ id: printers.id, productTypeIds: printers.productTypeIds }).from(printers)
    .where(and(eq(printers.branchId, branchId), printerId === undefined ? undefined : eq(printers.id, printerId)));
  if (!branchPrinters.length) return [];
  const types = new Set((await db.selectDistinct({ typeId: productSubtypes.typeId }).from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(productSubtypes, eq(productSubtypes.id, products.subtypeId))
    .where(eq(orderItems.orderId, orderId))).map((t) => t.typeId));
  return branchPrinters.filter((p) => !p.productTypeIds.length || p.productTypeIds.some((id) => types.has(id)));
}

/**
 * Queues the ticket of a just-accepted order for each of its branch's printers that prints any of
 * its items, inside the accepting transaction (server/orders/transition.ts): the ticket exists
 * exactly when the acceptance does. The unique (order, printer, kind) makes a second call a no-op.
 */
export async function queueTickets(tx: Tx, order: { id: number; branchId: number }): Promise<void> {
  const targets = await printersForOrder(tx, order.id, order.branchId);
  if (!targets.length) return;
  await tx.insert(printJobs).values(targets.map((p) => ({ orderId: order.id, printerId: p.id, kind: TICKET }))).onConflictDoNothing();
}

/**
 * A reprint asked from the console: a new job per printer (the order's, or the one named), kind
 * 'reprint-<n>' numbered per order and printer. Two clicks are two reprints; a click that races
 * another for the same number takes the next one. Returns the jobs queued (none: no printer prints
 * this order's items).
 */
export async function queueReprint(db: Db, order: { id: number; branchId: number }, requestedBy: number, printerId?: number): Promise<PrintJobRow[]> {
  const targets = await printersForOrder(db, order.id, order.branchId, printerId);
  const queued: PrintJobRow[] = [];
  for (const p of targets) {
    for (let attempt = 1; ; attempt++) {
      const [{ n }] = await db.select({ n: count() }).from(printJobs).where(and(eq(printJobs.orderId, order.id), eq(printJobs.printerId, p.id)));
      try {
        const [job] = await db.insert(printJobs).values({ orderId: order.id, printerId: p.id, kind: `reprint-${n}`, requestedBy }).returning();
        queued.push(job);
        break;
      } catch (err) {
        if (uniqueViolation(err) === null || attempt >= 5) throw err;
      }
    }
  }
  return queued;
}

/** The printer whose URL holds this token, or null. */
export async function printerByToken(db: Db, token: string): Promise<PrinterRow | null> {
  if (!token || token.length > 100) return null;
  const [printer] = await db.select().from(printers).where(eq(printers.token, token));
  return printer ?? null;
}

/** A poll: the printer is online now (its status noted); answers its oldest job not yet confirmed, if any. */
export async function poll(db: Db, printer: PrinterRow, status: string | null): Promise<PrintJobRow | null> {
  await db.update(printers).set({ lastPolledAt: new Date(), lastStatus: status?.slice(0, 200) ?? null }).where(eq(printers.id, printer.id));
  return nextJob(db, printer.id);
}

/** The printer's oldest pending job: a job fetched and never confirmed is offered again. */
export async function nextJob(db: Db, printerId: number, jobId?: number): Promise<PrintJobRow | null> {
  const [job] = await db.select().from(printJobs)
    .where(and(eq(printJobs.printerId, printerId), eq(printJobs.status, 'pending'), jobId === undefined ? undefined : eq(printJobs.id, jobId)))
    .orderBy(asc(printJobs.id)).limit(1);
  return job ?? null;
}

/** The printer took the job's content: counted, never done by that alone. */
export async function markFetched(db: Db, jobId: number): Promise<void> {
  await db.update(printJobs).set({ fetchCount: sql`${printJobs.fetchCount} + 1`, fetchedAt: new Date() }).where(eq(printJobs.id, jobId));
}

/**
 * The printer's answer for a job it fetched: printed (done, for good) or not (kept pending, offered
 * again, its code kept). Only a pending job of this printer changes; a repeated confirmation is a no-op.
 * Returns whether the job is now done.
 */
export async function confirm(db: Db, printerId: number, jobId: number, printed: boolean, code: string | null): Promise<boolean> {
  const [job] = await db.update(printJobs)
    .set(printed ? { status: 'done', doneAt: new Date(), resultCode: code?.slice(0, 100) ?? null } : { resultCode: code?.slice(0, 100) ?? null })
    .where(and(eq(printJobs.id, jobId), eq(printJobs.printerId, printerId), eq(printJobs.status, 'pending')))
    .returning({ status: printJobs.status });
  return job?.status === 'done';
}

/** A job's id as the printers carry it (CloudPRNT's jobToken, ePOS-Print's printjobid). */
export const jobToken = (job: { id: number }) => `job-${job.id}`;
export function jobIdOf(token: unknown): number | null {
  const m = typeof token === 'string' ? /^job-(\d{1,10})$/.exec(token) : null;
  return m && Number(m[1]) <= 2147483647 ? Number(m[1]) : null;
}
