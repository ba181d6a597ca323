import { ORDER_AHEAD_DAYS } from '../domain/orderTime';
import { addDays, dayKey, momentOf } from '../domain/time';

/**
 * The checkout's "When" (issue 25, order for later): as soon as possible, or later on a day
 * (today .. today + ORDER_AHEAD_DAYS, Kuwait's calendar) at a free slot's start. The checkout
 * machine holds one OrderWhen (event `checkout.when`); these pure steps make the next one, and the
 * request sends `scheduledFor` only for a chosen slot. "Later" without a slot yet cannot be placed
 * (the checkout's `canSubmit`), so it never goes out as an order for as soon as possible.
 */
export interface OrderWhen {
  later: boolean;
  /** The day shown ('YYYY-MM-DD', Kuwait), null for as soon as possible. */
  day: string | null;
  /** The chosen slot's start (ISO), or null. */
  scheduledFor: string | null;
}

/** A slot as Store/GetOrderSlots answers it. */
export interface OrderSlot { start: string; end: string; state: string; taken: number; left?: number | null }

export const ASAP: OrderWhen = { later: false, day: null, scheduledFor: null };

/** The days an order may be for, from today (Kuwait) at `now`. */
export const orderDays = (now: Date): string[] => Array.from({ length: ORDER_AHEAD_DAYS + 1 }, (_, i) => addDays(dayKey(now), i));

/** "Later", on a day (today by default): no slot chosen yet. */
export const laterOn = (day: string): OrderWhen => ({ later: true, day, scheduledFor: null });

/** A time chosen: a free slot's start, or the next free time the server offered after a full one. */
export function laterAt(start: string): OrderWhen {
  const at = momentOf(start);
  return at ? { later: true, day: dayKey(at), scheduledFor: at.toISOString() } : ASAP;
}

/** The slots a customer may choose: the free ones. */
export const freeSlots = (slots: readonly (OrderSlot | null)[]): OrderSlot[] => slots.filter((s): s is OrderSlot => !!s && s.state === 'free');

/** Ready to be placed: as soon as possible, or later with a time chosen. */
export const whenIsComplete = (w: OrderWhen) => !w.later || w.scheduledFor !== null;
