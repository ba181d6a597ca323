import { addDays, dayKey, dayStart } from '../../../domain/time';

/**
 * The dashboard's filter in the address bar (issue 23), so a reload, a shared link and Back show
 * the same figures: ?period=lastWeek&brand=7&branch=1, or ?period=custom&from=2026-11-01&to=2026-11-07
 * (days, both inclusive). Periods are whole days in the brand's zone (Kuwait), whatever the
 * browser's. Anything unknown is ignored, never an error: the default is all time, every brand.
 */
export const PERIODS = ['all', 'today', 'yesterday', 'last7', 'lastWeek', 'thisMonth', 'last30', 'custom'] as const;
export type PeriodKey = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<PeriodKey, string> = {
  all: 'All time', today: 'Today', yesterday: 'Yesterday', last7: 'Last 7 days', lastWeek: 'Last week (Sunday to Saturday)',
  thisMonth: 'This month', last30: 'Last 30 days', custom: 'Between two days',
};

export interface DashboardFilter { period: PeriodKey; from?: string; to?: string; brandId?: number; branchId?: number }

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const id = (text: string | null) => { const n = Number(text); return Number.isInteger(n) && n > 0 ? n : undefined; };

export function filterFromSearch(search: string): DashboardFilter {
  const q = new URLSearchParams(search);
  const period = (PERIODS as readonly string[]).includes(q.get('period') ?? '') ? q.get('period') as PeriodKey : 'all';
  const from = q.get('from') ?? '', to = q.get('to') ?? '';
  const custom = period === 'custom' && DAY_RE.test(from) && DAY_RE.test(to) && from <= to;
  return {
    period: period === 'custom' && !custom ? 'all' : period,
    ...(custom && { from, to }),
    ...(id(q.get('brand')) && { brandId: id(q.get('brand')) }),
    ...(id(q.get('branch')) && { branchId: id(q.get('branch')) }),
  };
}

export function searchFromFilter(f: DashboardFilter): string {
  const q = new URLSearchParams();
  if (f.period !== 'all') q.set('period', f.period);
  if (f.period === 'custom' && f.from && f.to) { q.set('from', f.from); q.set('to', f.to); }
  if (f.brandId) q.set('brand', String(f.brandId));
  if (f.branchId) q.set('branch', String(f.branchId));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** What is wrong with two days typed as a period ('YYYY-MM-DD', both inclusive), or null. */
export function dayRangeProblem(from: string, to: string): string | null {
  if (!DAY_RE.test(from) || !DAY_RE.test(to)) return 'Choose both days.';
  if (from > to) return 'The first day must not come after the last day.';
  return null;
}


/** The first and last day of a period (inclusive), in Kuwait; null for all time. */
export function daysOf(f: DashboardFilter, now = new Date()): { first: string; last: string } | null {
  const today = dayKey(now);
  switch (f.period) {
    case 'all': return null;
    case 'today': return { first: today, last: today };
    case 'yesterday': return { first: addDays(today, -1), last: addDays(today, -1) };
    case 'last7': return { first: addDays(today, -6), last: today };
    case 'last30': return { first: addDays(today, -29), last: today };
    case 'thisMonth': return { first: `${today.slice(0, 8)}01`, last: today };
    case 'lastWeek': {
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
      const sunday = addDays(today, -weekday - 7);
      return { first: sunday, last: addDays(sunday, 6) };
    }
    case 'custom': return f.from && f.to ? { first: f.from, last: f.to } : null;
  }
}

/** The period the server is asked for, for days 'YYYY-MM-DD' (both inclusive): from the first day's Kuwait midnight to the midnight after the last (exclusive). */
export const periodOfDays = (first: string, last: string) => ({ fromDate: dayStart(first), toDate: dayStart(addDays(last, 1)) });

/** The period of a filter (nothing for all time). */
export function periodOf(f: DashboardFilter, now = new Date()): { fromDate?: string; toDate?: string } {
  const days = daysOf(f, now);
  return days ? periodOfDays(days.first, days.last) : {};
}
