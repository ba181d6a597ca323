/**
 * Branch online-ordering schedules: one row per weekday (0 = Sunday), 'HH:MM' in the branch's
 * local time, which is Kuwait's for every branch (UTC+3, no daylight saving).
 */
export const BRANCH_TIME_ZONE = 'Asia/Kuwait';

export interface ScheduleWindow { dayOfWeek: number; openTime: string; closeTime: string }

const DAY_MINUTES = 24 * 60;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const minutesOf = (hhmm: string) => {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** Weekday (0 = Sunday) and minutes since midnight of `at` in `timeZone`. */
export function localDayAndMinutes(at: Date, timeZone = BRANCH_TIME_ZONE): { dayOfWeek: number; minutes: number } {
  let format = clockFormats.get(timeZone);
  // Making a DateTimeFormat costs far more than using one (every order checks its branch's schedule).
  if (!format) clockFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  const parts = format.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { dayOfWeek: WEEKDAYS.indexOf(part('weekday')), minutes: (Number(part('hour')) % 24) * 60 + Number(part('minute')) };
}

/**
 * True when one of the windows covers `at`. Decisions where the spec is silent:
 * - a close time of 23:59 means "until midnight" (the seed's all-day rows are 00:00–23:59);
 * - a close time before the open time runs past midnight into the next day (18:00–02:00);
 * - equal open and close times mean the whole day.
 */
export function isOpenAt(windows: ScheduleWindow[], at: Date, timeZone = BRANCH_TIME_ZONE): boolean {
  const now = localDayAndMinutes(at, timeZone);
  const yesterday = (now.dayOfWeek + 6) % 7;
  return windows.some((w) => {
    const open = minutesOf(w.openTime);
    let close = minutesOf(w.closeTime);
    if (Number.isNaN(open) || Number.isNaN(close)) return false;
    if (close === DAY_MINUTES - 1) close = DAY_MINUTES;
    if (open === close) return w.dayOfWeek === now.dayOfWeek;
    if (open < close) return w.dayOfWeek === now.dayOfWeek && now.minutes >= open && now.minutes < close;
    return (w.dayOfWeek === now.dayOfWeek && now.minutes >= open) || (w.dayOfWeek === yesterday && now.minutes < close);
  });
}

/** A branch without schedule rows takes online orders during its opening hours, every day. */
export const dailyWindows = (openTime: string, closeTime: string): ScheduleWindow[] =>
  [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, openTime, closeTime }));

/**
 * The windows a branch takes online orders in: its schedule rows, or its daily open/close hours
 * when it has none. The order check (planOrder.ts) and the shop's "Closed · opens …" both read these.
 */
export const orderingWindows = (schedule: ScheduleWindow[], branch: { openTime: string; closeTime: string }): ScheduleWindow[] =>
  schedule.length ? schedule : dailyWindows(branch.openTime, branch.closeTime);

/** Whether a branch takes online orders at a moment, and when that next changes (null: never, within a week). */
export interface OrderingStatus { isOpen: boolean; opensAt: Date | null; closesAt: Date | null }

/**
 * isOpenAt at `at`, with the next opening (when closed) or closing (when open). The candidates are
 * the windows' own open and close minutes over the coming week; each is checked with isOpenAt, so
 * back-to-back windows (an all-day Saturday, then Sunday) do not read as a closing. The time zone
 * keeps one offset all week (Kuwait has no daylight saving).
 */
export function orderingStatus(windows: ScheduleWindow[], at: Date, timeZone = BRANCH_TIME_ZONE): OrderingStatus {
  const isOpen = isOpenAt(windows, at, timeZone);
  const now = localDayAndMinutes(at, timeZone);
  const minuteStart = at.getTime() - (at.getTime() % 60_000);
  const candidates = new Set<number>();
  for (const w of windows) {
    let open = minutesOf(w.openTime), close = minutesOf(w.closeTime);
    if (Number.isNaN(open) || Number.isNaN(close)) continue;
    // As isOpenAt reads them, in minutes from the start of the window's weekday.
    if (close === DAY_MINUTES - 1) close = DAY_MINUTES;
    if (open === close) [open, close] = [0, DAY_MINUTES];
    else if (close < open) close += DAY_MINUTES;
    const edge = isOpen ? close : open;
    for (let week = -1; week <= 1; week += 1) {
      const ahead = ((w.dayOfWeek - now.dayOfWeek + 7) % 7 + 7 * week) * DAY_MINUTES + edge - now.minutes;
      if (ahead > 0 && ahead <= 8 * DAY_MINUTES) candidates.add(minuteStart + ahead * 60_000);
    }
  }
  const next = [...candidates].sort((a, b) => a - b).find((c) => isOpenAt(windows, new Date(c), timeZone) !== isOpen);
  const change = next === undefined ? null : new Date(next);
  return { isOpen, opensAt: isOpen ? null : change, closesAt: isOpen ? change : null };
}
