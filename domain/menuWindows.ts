import { BRANCH_TIME_ZONE, isOpenAt, type ScheduleWindow } from './schedule';

/**
 * Menus by time of day (issue 25): a product type, a sub-type or a product may be offered only
 * in windows per weekday (breakfast 06:00–11:00), on the branch's clock (Kuwait's, UTC+3). None
 * means always. They are evaluated at the order's time, not at "now": the shop's menu reads,
 * the cart's check and the server's check at placement all read them through this file.
 *
 * A window belongs to the weekday it starts on (0 = Sunday … 6) and covers [from, to) in minutes
 * since that day's midnight, 0..1440. A `to` before `from` runs past midnight into the next day
 * (a late menu 22:00–02:00 on Thursday covers Friday 01:00), as the branch schedule's windows do
 * (domain/schedule.ts isOpenAt, which this file reads them with). Equal `from` and `to` is refused:
 * a whole day is 0–1440.
 */
export interface MenuWindow { weekday: number; fromMinute: number; toMinute: number }

export const DAY_MINUTES = 24 * 60;

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Minutes since midnight as 'HH:MM' (1440: '24:00'). */
export const clockOfMinutes = hhmm;

/** A window's hours as text, '06:00–11:00', '22:00–02:00 (next day)'. */
export const windowText = (w: Pick<MenuWindow, 'fromMinute' | 'toMinute'>) => `${hhmm(w.fromMinute)}–${hhmm(w.toMinute)}${w.toMinute < w.fromMinute ? ' (next day)' : ''}`;

/** 'HH:MM' (00:00..24:00) → minutes since midnight; null when it names no time of day. */
export function minutesOfText(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minutes <= DAY_MINUTES ? minutes : null;
}

/** True when `windows` allow `at`: no windows at all, or one of them covers it. */
export function availableAt(windows: readonly MenuWindow[] | null | undefined, at: Date, timeZone = BRANCH_TIME_ZONE): boolean {
  if (!windows?.length) return true;
  const schedule: ScheduleWindow[] = windows.map((w) => ({ dayOfWeek: w.weekday, openTime: hhmm(w.fromMinute), closeTime: hhmm(w.toMinute) }));
  return isOpenAt(schedule, at, timeZone);
}

/**
 * A product is available at a moment when its type, its sub-type and itself all are: each level
 * narrows the one above it (breakfast 06:00–11:00, its pancakes only at weekends).
 */
export const productAvailableAt = (levels: { type?: readonly MenuWindow[] | null; subtype?: readonly MenuWindow[] | null; product?: readonly MenuWindow[] | null }, at: Date, timeZone = BRANCH_TIME_ZONE) =>
  availableAt(levels.type, at, timeZone) && availableAt(levels.subtype, at, timeZone) && availableAt(levels.product, at, timeZone);

/** The most windows one type, sub-type or product may have (three a day is already a busy menu). */
export const MAX_WINDOWS = 28;

/** What is wrong with a list of windows, as one sentence naming the window; null when nothing is. */
export function menuWindowsError(windows: readonly MenuWindow[]): string | null {
  if (windows.length > MAX_WINDOWS) return `At most ${MAX_WINDOWS} availability windows.`;
  for (const [i, w] of windows.entries()) {
    const which = `Availability window ${i + 1}`;
    if (!Number.isInteger(w.weekday) || w.weekday < 0 || w.weekday > 6) return `${which}: the weekday must be 0 (Sunday) to 6 (Saturday).`;
    for (const [field, value] of [['start', w.fromMinute], ['end', w.toMinute]] as const) {
      if (!Number.isInteger(value) || value < 0 || value > DAY_MINUTES) return `${which}: the ${field} must be a time of day from 00:00 to 24:00 (minute 0 to 1440).`;
    }
    if (w.fromMinute === w.toMinute) return `${which}: the start and the end are the same time; a whole day is 00:00–24:00.`;
    if (w.fromMinute === DAY_MINUTES) return `${which}: the start must be before 24:00.`;
  }
  return null;
}
