import { PHONE_COUNTRY_CODES } from './constants';

/** '+965 5000 0001', '96550000001' and '+96550000001' are one phone: '+96550000001'. Null if not a phone. */
export function normalisePhone(input: string): string | null {
  const digits = input.replace(/[\s\-()]/g, '');
  if (!/^\+?\d{8,15}$/.test(digits)) return null;
  return digits.startsWith('+') ? digits : `+${digits}`;
}

/**
 * SPEC.md 5: a plus sign, a 3-digit country code, 3 digits, 5 digits and an optional final digit,
 * for the supported country codes only.
 */
export function isValidPhone(input: string): boolean {
  const p = normalisePhone(input);
  if (!p) return false;
  const m = /^\+(\d{3})(\d{8,9})$/.exec(p);
  return !!m && (PHONE_COUNTRY_CODES as readonly string[]).includes(m[1]);
}

/**
 * What is wrong with a phone typed into the shop's phone input (SPEC.md 5), or null when it is
 * valid: nothing typed, something that is not a number, or a number that is not a phone.
 */
export type PhoneProblem = 'missing' | 'notANumber' | 'notAPhone';
export function phoneProblem(input: string): PhoneProblem | null {
  const text = input.trim();
  if (!text || /^\+?\d{3}$/.test(text)) return 'missing';
  if (!/^\+?[\d\s\-()]+$/.test(text)) return 'notANumber';
  return isValidPhone(text) ? null : 'notAPhone';
}
