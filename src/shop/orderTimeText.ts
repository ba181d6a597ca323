import { dateTime } from '../i18n';

// The order's chosen time as the shop shows it (issue 25): on the branch's clock (Kuwait), in the shop's language, Latin digits.

/** The time of day: '10:15'. */
export const orderClock = (iso: string) => dateTime(iso, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** A day of the picker: 'Mon 30 Nov' ('الاثنين 30 نوفمبر'). */
export const orderDay = (iso: string) => dateTime(iso, { weekday: 'short', day: 'numeric', month: 'short' });
/** The day and time: 'Sat 28 Nov, 10:15'. */
export const orderDayTime = (iso: string) => `${orderDay(iso)}, ${orderClock(iso)}`;
