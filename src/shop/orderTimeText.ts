import { language } from '../i18n';
import { orderClockText, orderDayText, orderDayTimeText } from '../../domain/time';

// The order's chosen time as the shop shows it (issue 25): on the branch's clock (Kuwait), in the shop's language, Latin digits.
// The same texts as the customer's notices (server/notify/orderPushes.ts): domain/time.ts.

/** The time of day: '10:15'. */
export const orderClock = (iso: string) => orderClockText(iso, language());
/** A day of the picker: 'Mon, Nov 30' ('الاثنين، 30 نوفمبر'). */
export const orderDay = (iso: string) => orderDayText(iso, language());
/** The day and time: 'Sat, Nov 28, 10:15'. */
export const orderDayTime = (iso: string) => orderDayTimeText(iso, language());
