import { dayKey, fromZoneInput } from '../../../domain/time';

/** The periods the quality report offers, and its figures as text. Pure, so they are unit-tested. */
export const PERIODS = [
  { key: 'today', label: 'Today' },
  { key: '7d', label: 'Last 7 days' },
  { key: '30d', label: 'Last 30 days' },
  { key: '90d', label: 'Last 90 days' },
] as const;
export type PeriodKey = (typeof PERIODS)[number]['key'];

/** [fromDate, toDate) of a period ending now; 'today' starts at midnight in the brand's zone (domain/time.ts), whatever the browser's. */
export function periodRange(key: PeriodKey, now: Date): { fromDate: string; toDate: string } {
  const from = key === 'today' ? new Date(fromZoneInput(`${dayKey(now)}T00:00`)!) : new Date(now.getTime() - Number(key.replace('d', '')) * 24 * 3600 * 1000);
  // the end is a moment after now, so an order placed while the page is open still counts on a refresh
  return { fromDate: from.toISOString(), toDate: new Date(now.getTime() + 24 * 3600 * 1000).toISOString() };
}

/** 95 → "1 min 35 s", 30 → "30 s", 3720 → "1 h 2 min", null → "—". */
export function durationText(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const m = Math.round(s / 60);
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/** 2 of 6 → "2 (33 %)"; none of none → "0". */
export const rateText = (count: number, of: number) => (of > 0 && count > 0 ? `${count} (${Math.round((count / of) * 100)} %)` : String(count));
