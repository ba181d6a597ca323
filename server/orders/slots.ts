import { and, eq, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { branches, orders, orderSlots } from '../db/schema';
import { ApiError } from '../http/envelope';
import type { DeliverySystem } from '../../machines/orderLifecycle';
import { addDays, dayKey, dayStart } from '../../domain/time';
import { ORDER_AHEAD_DAYS, slotOf, slotsOfDay, type Slot } from '../../domain/orderTime';
import type { ScheduleWindow } from '../../domain/schedule';

/**
 * Capacity per time slot (issue 25). Per branch and mode a slot length and a maximum number of
 * orders (null: no limit), per branch an optional "orders in progress" limit (accepted + ready).
 * Every order counts in the slot of its time (domain/orderTime.ts) except a rejected one. A slot
 * with a maximum keeps its count on its row (order_slots.taken): a placement raises it inside the
 * order's transaction, which locks the row, so placements at once are taken one after the other and
 * a slot never takes more than its maximum; the rejecting step lowers it (releasePlace). The reads
 * (the day's loads, the next free slot) count the orders themselves.
 */
type BranchRow = typeof branches.$inferSelect;

const SETTING_COLUMNS = {
  pickup: ['pickupSlotMinutes', 'pickupSlotMax'],
  carService: ['carServiceSlotMinutes', 'carServiceSlotMax'],
  delivery: ['deliverySlotMinutes', 'deliverySlotMax'],
} as const satisfies Record<DeliverySystem, readonly [keyof BranchRow, keyof BranchRow]>;

/** A branch's slot length and maximum for one mode. */
export function slotSettingsOf(branch: BranchRow, mode: DeliverySystem): { slotMinutes: number; maxOrders: number | null } {
  const [minutes, max] = SETTING_COLUMNS[mode];
  return { slotMinutes: branch[minutes], maxOrders: branch[max] };
}

/** What a placement takes: a place in one slot of one branch and mode. */
export interface SlotClaim {
  branchId: number;
  mode: DeliverySystem;
  slot: Slot;
  slotMinutes: number;
  maxOrders: number | null;
  /** Only an order for "as soon as possible" is held to the orders-in-progress limit. */
  inProgressMax: number | null;
  /** The branch's online-ordering windows and the earliest time an order may be for now: where the next free slot is looked for. */
  windows: ScheduleWindow[];
  earliest: Date;
}

/** The refusals of an order's time (400) and of a full or closed slot (409); Arabic in server/messages/arabic.ts. */
export const ORDER_TIME_TEXT = {
  tooSoon: (earliest: string) => `Please choose a time from ${earliest} on: the branch needs that long to prepare an order.`,
  tooFar: `Please choose a time within the next ${ORDER_AHEAD_DAYS} days.`,
  closedThen: 'The branch does not take online orders at that time. Please choose a time within its opening hours.',
  full: (next: string) => `This time is full. The next free time is ${next}.`,
  closed: (next: string) => `This time is closed for orders. The next free time is ${next}.`,
  inProgress: (next: string) => `The branch has too many orders in progress right now. The next free time is ${next}.`,
  noneFree: 'This time is full, and there is no free time in the next 7 days.',
} as const;

export type SlotRefusalKind = 'full' | 'closed' | 'inProgress';

/** A refused place, before the answer is written (the next free slot is looked for after the order's transaction). */
export class SlotRefusal extends Error {
  constructor(readonly claim: SlotClaim, readonly kind: SlotRefusalKind) { super(`slot ${kind}`); }
}

const inSlot = (branchId: number, mode: string, slot: Slot) => and(
  eq(orders.branchId, branchId), eq(orders.deliverySystem, mode), gte(orders.orderTime, slot.start), lt(orders.orderTime, slot.end), ne(orders.status, 'rejected'));

async function takenIn(db: Db | Tx, branchId: number, mode: string, slot: Slot): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(inSlot(branchId, mode, slot));
  return Number(row?.n ?? 0);
}

const slotKey = (branchId: number, mode: string, slot: Slot) =>
  and(eq(orderSlots.branchId, branchId), eq(orderSlots.mode, mode), eq(orderSlots.slotStart, slot.start));

/**
 * Whether the claim's slot has room, without taking anything (the quote); a SlotRefusal when not.
 * The count is the one kept on the slot's row, or the orders' count where none is kept.
 */
export async function checkSlot(db: Db | Tx, claim: SlotClaim): Promise<void> {
  const { branchId, mode, slot, maxOrders } = claim;
  const [row] = await db.select({ closed: orderSlots.closed, taken: orderSlots.taken }).from(orderSlots).where(slotKey(branchId, mode, slot));
  if (row?.closed) throw new SlotRefusal(claim, 'closed');
  if (maxOrders !== null && (row?.taken ?? await takenIn(db, branchId, mode, slot)) >= maxOrders) throw new SlotRefusal(claim, 'full');
  await checkInProgress(db, claim);
}

/**
 * The "orders in progress" limit (accepted + ready, all modes of the branch), for an order for as
 * soon as possible. Read without a lock: a placement never changes that count. Its cost does not
 * grow with a slot: it reads the index orders(branch_id, status, id) over the branch's accepted and
 * ready orders only, the kitchen's work in hand, which the limit itself keeps small.
 */
export async function checkInProgress(db: Db | Tx, claim: SlotClaim): Promise<void> {
  if (claim.inProgressMax === null) return;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders)
    .where(and(eq(orders.branchId, claim.branchId), inArray(orders.status, ['accepted', 'ready'])));
  if (Number(row?.n ?? 0) >= claim.inProgressMax) throw new SlotRefusal(claim, 'inProgress');
}

/**
 * Takes the order's place in a slot with a maximum, in the order's own statement: its CTE `s`
 * upserts the slot's row with its kept count raised by one for the order `o` the statement
 * inserted (nothing when none was), which locks the row until the order's transaction ends, so the
 * next placement in the slot waits for this one to commit or roll back. takePlace then judges the
 * row the CTE returned. One statement with the order, whatever the slot holds.
 */
export const takePlaceSql = (claim: SlotClaim) => sql`, s as (${countUpsert(claim.branchId, claim.mode, claim.slot, 1, sql`from o`)})`;

/**
 * Judges the slot's row as the order's statement left it (takePlaceSql): closed or over the maximum
 * is a SlotRefusal, and the transaction's rollback takes back the order and the raised count
 * together. Where no count is kept (a new row, or one whose branch changed its slot settings:
 * migration 0058's trigger) the slot's orders, this one included, are counted once under the lock and kept.
 */
export async function takePlace(tx: Db | Tx, claim: SlotClaim, row: { closed: boolean; taken: number | null }): Promise<void> {
  const { branchId, mode, slot, maxOrders } = claim;
  if (maxOrders === null) return;
  if (row.closed) throw new SlotRefusal(claim, 'closed');
  let taken = row.taken;
  if (taken === null) {
    taken = await takenIn(tx, branchId, mode, slot);
    await tx.update(orderSlots).set({ taken }).where(slotKey(branchId, mode, slot));
  }
  if (taken > maxOrders) throw new SlotRefusal(claim, 'full');
}

/**
 * Gives back a rejected order's place (every status but rejected counts): the kept count of its
 * slot goes down by one, in the rejecting step's transaction (server/orders/transition.ts). Only a
 * slot with a maximum keeps a count; the row is upserted so that it is locked by this step and a
 * placement that counts the slot afresh waits for the rejection to commit.
 */
export async function releasePlace(tx: Db | Tx, order: { branchId: number; deliverySystem: string; orderTime: Date | null }): Promise<void> {
  if (!order.orderTime) return;
  const [branch] = await tx.select().from(branches).where(eq(branches.id, order.branchId));
  const { slotMinutes, maxOrders } = slotSettingsOf(branch, order.deliverySystem as DeliverySystem);
  if (maxOrders === null) return;
  const slot = slotOf(order.orderTime, slotMinutes);
  await tx.execute(countUpsert(order.branchId, order.deliverySystem, slot, -1, sql``));
}

/** Upserts a slot's row with its kept count moved by `by` (a new row, or one without a count, keeps none), locking it until commit; `source` may make it conditional (`from o`). */
const countUpsert = (branchId: number, mode: string, slot: Slot, by: 1 | -1, source: SQL) => sql`
  insert into order_slots (branch_id, mode, slot_start) select ${branchId}::int, ${mode}::text, ${slot.start.toISOString()}::timestamptz ${source}
  on conflict (branch_id, mode, slot_start) do update set taken = order_slots.taken + ${by}::int
  returning closed, taken`;

/**
 * "The claim's slot is not closed", as SQL for the order's own write: a place in a slot without a
 * maximum is checked inside the insert's statement, so intake without limits costs no extra round trip.
 */
export const slotOpenSql = ({ branchId, mode, slot }: SlotClaim) => sql`not exists (select 1 from ${orderSlots} where ${orderSlots.branchId} = ${branchId}::int
  and ${orderSlots.mode} = ${mode}::text and ${orderSlots.slotStart} = ${slot.start.toISOString()}::timestamptz and ${orderSlots.closed})`;

/** The 409 of a refused place: the message names the next free time, `details` carries it as ISO (null: none in the next 7 days). */
export async function slotConflict(db: Db, refusal: SlotRefusal, formatTime: (at: Date) => string): Promise<ApiError> {
  const next = await nextFreeSlot(db, refusal.claim);
  if (!next) return new ApiError(409, ORDER_TIME_TEXT.noneFree);
  return new ApiError(409, ORDER_TIME_TEXT[refusal.kind](formatTime(next.start)), null, next.start.toISOString());
}

export interface SlotLoad extends Slot { taken: number; closed: boolean }

/** The slots of a day (Kuwait) inside the branch's windows, with the orders in each and whether it is closed. */
export async function slotLoadsOfDay(db: Db | Tx, branchId: number, mode: DeliverySystem, day: string, slotMinutes: number, windows: ScheduleWindow[]): Promise<SlotLoad[]> {
  const slots = slotsOfDay(day, slotMinutes, windows);
  if (!slots.length) return [];
  const whole: Slot = { start: new Date(dayStart(day)), end: new Date(dayStart(addDays(day, 1))) };
  const [times, closedRows] = await Promise.all([
    db.select({ at: orders.orderTime }).from(orders).where(inSlot(branchId, mode, whole)),
    db.select({ start: orderSlots.slotStart }).from(orderSlots).where(and(
      eq(orderSlots.branchId, branchId), eq(orderSlots.mode, mode), eq(orderSlots.closed, true),
      gte(orderSlots.slotStart, whole.start), lt(orderSlots.slotStart, whole.end))),
  ]);
  const taken = new Map<number, number>();
  for (const { at } of times) {
    const start = slotOf(new Date(at!), slotMinutes).start.getTime();
    taken.set(start, (taken.get(start) ?? 0) + 1);
  }
  const closed = new Set(closedRows.map((r) => new Date(r.start).getTime()));
  return slots.map((s) => ({ ...s, taken: taken.get(s.start.getTime()) ?? 0, closed: closed.has(s.start.getTime()) }));
}

/** Whether a slot takes one more order. */
export const hasRoom = (load: SlotLoad, maxOrders: number | null) => !load.closed && (maxOrders === null || load.taken < maxOrders);

/**
 * The first slot after the claim's with room, that an order may still be for (at or after the
 * earliest time, inside the windows), up to ORDER_AHEAD_DAYS ahead; null when there is none.
 */
export async function nextFreeSlot(db: Db, claim: SlotClaim): Promise<SlotLoad | null> {
  const last = addDays(dayKey(claim.earliest), ORDER_AHEAD_DAYS);
  for (let day = dayKey(claim.slot.end); day <= last; day = addDays(day, 1)) {
    const loads = await slotLoadsOfDay(db, claim.branchId, claim.mode, day, claim.slotMinutes, claim.windows);
    const free = loads.find((l) => l.start >= claim.slot.end && l.start >= claim.earliest && hasRoom(l, claim.maxOrders));
    if (free) return free;
  }
  return null;
}
