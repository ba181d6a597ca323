import { BRANCH_TIME_ZONE } from './schedule';

/**
 * Dates and times, in one place for the console, the shop and the server's texts: every moment
 * is shown, and every date-time typed into a form is read, in the brand's time zone, whatever the
 * zone of the browser or of the server. The schema has no time zone per brand or branch: every
 * branch keeps Kuwait's clock (domain/schedule.ts BRANCH_TIME_ZONE, UTC+3, no daylight saving),
 * so that is the default of every function here.
 */
export const TIME_ZONE = BRANCH_TIME_ZONE;

export type Moment = Date | string | number;

/** The moment a value names, or null when it names none (null, '', not a date). */
export function momentOf(value: Moment | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** Making a DateTimeFormat costs far more than using one (lists format a column per row). */
function formatOf(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** A moment as text in `timeZone` (the brand's by default); '' when there is no moment. */
export function formatMoment(
  value: Moment | null | undefined, options: Intl.DateTimeFormatOptions, locale = 'en-GB', timeZone = TIME_ZONE,
): string {
  const d = momentOf(value);
  return d ? formatOf(locale, { ...options, timeZone }).format(d) : '';
}

/** The console's date and time: '27 Nov 2026, 08:00'. */
export const dateTimeText = (value: Moment | null | undefined) => formatMoment(value, { dateStyle: 'medium', timeStyle: 'short' });
/** The console's date: '27 Nov 2026'. */
export const dateText = (value: Moment | null | undefined) => formatMoment(value, { dateStyle: 'medium' });
/** The time of day on a 24-hour clock: '08:00'. */
export const clockText = (value: Moment | null | undefined) => formatMoment(value, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** The locale a language's dates are written in for customers (the shop, their notices): Latin digits in Arabic too. */
export const customerLocaleOf = (language: string) => (language === 'ar' ? 'ar-KW-u-nu-latn' : 'en-KW');
/** An order's chosen day: 'Sun, Nov 29' ('الأحد، 29 نوفمبر'), in a customer's language. */
export const orderDayText = (value: Moment | null | undefined, language: string) =>
  formatMoment(value, { weekday: 'short', day: 'numeric', month: 'short' }, customerLocaleOf(language));
/** An order's chosen time of day: '07:00'. */
export const orderClockText = (value: Moment | null | undefined, language: string) =>
  formatMoment(value, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, customerLocaleOf(language));
/** An order's chosen time as the customer reads it everywhere (checkout, tracker, inbox): 'Sun, Nov 29, 07:00'. */
export const orderDayTimeText = (value: Moment | null | undefined, language: string) =>
  `${orderDayText(value, language)}, ${orderClockText(value, language)}`;
/** Day and month: '27 Nov'. */
export const dayMonthText = (value: Moment | null | undefined) => formatMoment(value, { day: '2-digit', month: 'short' });

interface WallClock { year: number; month: number; day: number; hour: number; minute: number; second: number }

/** The wall clock in `timeZone` at a moment. */
function wallClockAt(at: Date, timeZone: string): WallClock {
  const parts = formatOf('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour') % 24, minute: part('minute'), second: part('second') };
}

/** A datetime-local value: a wall-clock time with no zone. */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The day a moment falls on in `timeZone`, as 'YYYY-MM-DD' (a key for counts per day). */
export function dayKey(at: Moment, timeZone = TIME_ZONE): string {
  const d = momentOf(at);
  if (!d) return '';
  const w = wallClockAt(d, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** A moment → the value of a datetime-local input ('YYYY-MM-DDTHH:MM'), on the wall clock of `timeZone`. */
export function toZoneInput(value: Moment | null | undefined, timeZone = TIME_ZONE): string {
  // What the input itself holds (typed, or kept from a refused save) is a wall-clock time already.
  if (typeof value === 'string' && WALL_CLOCK.test(value.trim())) return value.trim().slice(0, 16);
  const d = momentOf(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  const w = wallClockAt(d, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/**
 * A datetime-local input's value ('YYYY-MM-DDTHH:MM[:SS]'), read on the wall clock of `timeZone`
 * (not the browser's), → the moment as ISO. Anything else is read as a date string by Date, as
 * before; null when it names no moment.
 */
export function fromZoneInput(text: string, timeZone = TIME_ZONE): string | null {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) return momentOf(text)?.toISOString() ?? null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((n) => Number(n ?? 0));
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offset at that moment, found from the wall clock there; a second pass settles a
  // moment next to an offset change (Kuwait has none, other zones may).
  const offsetAt = (at: number) => {
    const w = wallClockAt(new Date(at), timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - at;
  };
  let at = asUtc - offsetAt(asUtc);
  at = asUtc - offsetAt(at);
  return new Date(at).toISOString();
}

/** A calendar day ('YYYY-MM-DD') moved by `n` days. */
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The moment a calendar day ('YYYY-MM-DD') begins in `timeZone` (the brand's by default), as ISO. */
export const dayStart = (day: string, timeZone = TIME_ZONE) => fromZoneInput(`${day}T00:00`, timeZone)!;
