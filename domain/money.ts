import { CURRENCY_DECIMALS } from './constants';

/**
 * Money is computed in integer thousandths ("fils") so sums never drift,
 * and is stored and sent as a decimal with 3 places.
 */
export type Fils = number;

const SCALE = 10 ** CURRENCY_DECIMALS;

export const toFils = (amount: number | string): Fils => Math.round(Number(amount) * SCALE);
export const fromFils = (fils: Fils): number => fils / SCALE;
/** The stored form: a decimal string with 3 places, e.g. "1.250". */
export const filsToDecimal = (fils: Fils): string => (fils / SCALE).toFixed(CURRENCY_DECIMALS);
/** Percent of an amount, rounded half up to the fils. */
export const percentOf = (fils: Fils, percent: number): Fils => Math.round((fils * percent) / 100);

export function formatMoney(amount: number | string, currency = 'KD', decimals = CURRENCY_DECIMALS): string {
  return `${Number(amount).toFixed(decimals)} ${currency}`;
}
