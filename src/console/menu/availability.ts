import { clockText, dayKey, fromZoneInput } from '../../../domain/time';

/**
 * "Sold out until" choices of /MenuManagement: the moment an item comes back by itself. The
 * server stores the time and compares it with now() in every read and in the order check.
 */
export type SoldOutChoice = 'hour' | 'twoHours' | 'endOfDay';

export const SOLD_OUT_CHOICES: { value: SoldOutChoice; label: string }[] = [
  { value: 'hour', label: 'for 1 hour' },
  { value: 'twoHours', label: 'for 2 hours' },
  { value: 'endOfDay', label: 'until the end of the day' },
];

/** The time a choice means, from `now`; the end of the day is 23:59 on the branch's clock (Kuwait's, whatever the browser's). */
export function soldOutUntil(choice: SoldOutChoice, now = new Date()): Date {
  if (choice === 'hour') return new Date(now.getTime() + 3600_000);
  if (choice === 'twoHours') return new Date(now.getTime() + 2 * 3600_000);
  const end = new Date(fromZoneInput(`${dayKey(now)}T23:59`)!);
  return end.getTime() > now.getTime() + 60_000 ? end : new Date(now.getTime() + 3600_000);
}

/** How an item's state reads in the list. */
export function availabilityText(item: { available: boolean; unavailableUntil?: string | null }): string {
  if (item.available) return 'Available';
  if (!item.unavailableUntil) return 'Switched off';
  const at = new Date(item.unavailableUntil);
  return `Sold out until ${clockText(at)}`;
}
