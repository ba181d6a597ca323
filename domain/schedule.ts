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
