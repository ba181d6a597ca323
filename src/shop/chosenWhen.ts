import { useSyncExternalStore } from 'react';
import { KEYS, storage } from '../lib/storage';
import { ASAP, type OrderWhen } from '../../machines/orderWhen';

/**
 * The order's time chosen in the shop (issue 25, "menus by time of day are evaluated at the order's
 * time"): chosen on the menu or at checkout, kept in the browser, and read by the menu, the product
 * page and the cart's check as their `at`, so a customer planning tomorrow's 07:00 breakfast at 21:00
 * sees the breakfast menu. The checkout starts at it and writes its own choice back. A time that has
 * passed counts as "as soon as possible".
 */
const listeners = new Set<() => void>();
let kept: OrderWhen | null = null;

function current(): OrderWhen {
  kept ??= storage.getJson<OrderWhen>(KEYS.orderWhen, ASAP);
  if (kept.scheduledFor && Date.parse(kept.scheduledFor) <= Date.now()) kept = ASAP;
  return kept;
}

export function chooseWhen(when: OrderWhen) {
  const now = current();
  if (now.later === when.later && now.day === when.day && now.scheduledFor === when.scheduledFor) return;
  kept = when;
  storage.setJson(KEYS.orderWhen, when);
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => { listeners.add(listener); return () => { listeners.delete(listener); }; };

/** The shop's chosen order time. */
export const useChosenWhen = () => useSyncExternalStore(subscribe, current, current);
/** The moment the menu is read at: the chosen time, or the server's now (absent) for as soon as possible. */
export const menuAt = (when: OrderWhen) => when.scheduledFor ?? undefined;
