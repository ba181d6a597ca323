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

/** An amount with 3 decimals and no currency, e.g. "1.250": a money input's value, a price column's, a ledger figure's. */
export const moneyDecimal = (amount: number | string): string => Number(amount).toFixed(CURRENCY_DECIMALS);

/** The Kuwaiti dinar's sign in Arabic texts (SPEC.md money: 'KD' or 'د.ك'). */
export const KD_AR = 'د.ك';

/**
 * Money as every screen and message shows it, in one place: Latin digits, 3 decimals, then the
 * currency ('1.250 KD'); in Arabic the dinar reads 'د.ك' ('1.250 د.ك'). Other currencies keep their code.
 */
export function formatMoney(amount: number | string, currency = 'KD', language = 'en'): string {
  return `${moneyDecimal(amount)} ${language === 'ar' && currency === 'KD' ? KD_AR : currency}`;
}

/**
 * The most one staff grant may give, and the most one balance may hold, per loyalty account
 * (issue 20; the figures and why: docs/decisions.md "Loyalty: ceilings"). Money is KD, the others
 * whole counts. The adjustment and request schemas take their maximums from here and the ledger
 * refuses any change that would take a balance above its ceiling, so no path reaches the columns'
 * own limits (numeric(12,3), integer).
 */
export const LOYALTY_CEILINGS = {
  wallet: { grant: 1_000, balance: 10_000 },
  credit: { grant: 1_000, balance: 10_000 },
  points: { grant: 10_000, balance: 1_000_000 },
  punches: { grant: 100, balance: 10_000 },
  freeItems: { grant: 100, balance: 10_000 },
} as const;
