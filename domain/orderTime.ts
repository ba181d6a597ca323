import { addDays, dayKey, dayStart } from './time';
import { isOpenAt, type ScheduleWindow } from './schedule';

/**
 * The order's time (issue 25, "order for later"): the ONE rule for the moment an order is for.
 * A customer may ask for a time (`scheduledFor`); otherwise the order is "as soon as possible",
 * and is for its placement time plus the branch's preparation minutes. Capacity per time slot
 * counts orders by it, and menus by time of day are evaluated at it.
 */
export function orderTimeOf(order: { scheduledFor: Date | null }, placedAt: Date, preparationMinutes: number): Date {
  return order.scheduledFor ?? earliestOrderTime(placedAt, preparationMinutes);
}

/** The earliest time an order placed at `now` can be for: now plus the branch's preparation minutes. */
export const earliestOrderTime = (now: Date, preparationMinutes: number) => new Date(now.getTime() + Math.max(0, preparationMinutes) * 60_000);

/**
 * An order for later reaches the kitchen (the board, the alert, the tickets) at its fire time: the
 * chosen time less the branch's preparation minutes, read when the job runner looks (server/orders/fire.ts
 * computes the same in SQL), so a branch that raises its preparation time fires its waiting orders earlier.
 * An order placed with its fire time still ahead starts `scheduled` (machines/orderLifecycle.ts).
 */
export const fireTimeOf = (scheduledFor: Date, preparationMinutes: number) => new Date(scheduledFor.getTime() - Math.max(0, preparationMinutes) * 60_000);
/** Whether an order placed at `now` for `scheduledFor` waits for its fire time (is placed `scheduled`). */
export const firesLater = (scheduledFor: Date | null, now: Date, preparationMinutes: number) =>
  !!scheduledFor && fireTimeOf(scheduledFor, preparationMinutes).getTime() > now.getTime();

/** How far ahead an order may be placed: today and the next 7 days (Kuwait's calendar). */
export const ORDER_AHEAD_DAYS = 7;

/** Why a requested time cannot be taken, or null when it can. */
export type ScheduledForProblem = 'tooSoon' | 'tooFar' | 'closed';

/**
 * A requested time is valid when it is at or after now + the branch's preparation minutes, on
 * today's date up to ORDER_AHEAD_DAYS ahead (Kuwait's calendar), and inside the branch's
 * online-ordering windows (domain/schedule.ts).
 */
export function scheduledForProblem(scheduledFor: Date, now: Date, preparationMinutes: number, windows: ScheduleWindow[]): ScheduledForProblem | null {
  if (scheduledFor.getTime() < earliestOrderTime(now, preparationMinutes).getTime()) return 'tooSoon';
  if (dayKey(scheduledFor) > addDays(dayKey(now), ORDER_AHEAD_DAYS)) return 'tooFar';
  if (!isOpenAt(windows, scheduledFor)) return 'closed';
  return null;
}

/**
 * A branch's slot length per mode, in minutes: 5 to 120, 15 by default. Slots start at the day's
 * midnight (Kuwait) and follow each other; a length that does not divide the day leaves a shorter
 * last slot before midnight.
 */
export const SLOT_MINUTES = { default: 15, min: 5, max: 120 } as const;
/** A slot's maximum number of orders, and the "orders in progress" limit: null = no limit. */
export const SLOT_MAX_ORDERS = { min: 1, max: 10_000 } as const;

export interface Slot { start: Date; end: Date }

/** The slot of `at` for slots of `slotMinutes` from the day's midnight (Kuwait). */
export function slotOf(at: Date, slotMinutes: number): Slot {
  const midnight = Date.parse(dayStart(dayKey(at)));
  const nextMidnight = Date.parse(dayStart(addDays(dayKey(at), 1)));
  const length = slotMinutes * 60_000;
  const start = midnight + Math.floor((at.getTime() - midnight) / length) * length;
  return { start: new Date(start), end: new Date(Math.min(start + length, nextMidnight)) };
}

/** The slots of a day ('YYYY-MM-DD', Kuwait) that start inside the branch's online-ordering windows. */
export function slotsOfDay(day: string, slotMinutes: number, windows: ScheduleWindow[]): Slot[] {
  const slots: Slot[] = [];
  const end = Date.parse(dayStart(addDays(day, 1)));
  for (let at = Date.parse(dayStart(day)); at < end; at += slotMinutes * 60_000) {
    if (isOpenAt(windows, new Date(at))) slots.push({ start: new Date(at), end: new Date(Math.min(at + slotMinutes * 60_000, end)) });
  }
  return slots;
}
