import { PHONE_COUNTRY_CODES } from './constants';
import { COUNTRIES } from './countries';

/** The phone input's default country code (Kuwait). */
export const DEFAULT_PHONE_CODE: string = (COUNTRIES.find((c) => c.isDefault) ?? COUNTRIES[0]).phoneCode;

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

/**
 * A phone as people type it in a list (a CSV of invitations, a staff form): '+965 5000 0001',
 * '0096550000001', '96550000001', or the 8 local digits '5000 0001', which take the default
 * country's code like the phone input (Kuwait, +965). The E.164 phone, or null when it is not a
 * valid phone (isValidPhone).
 */
export function phoneFromText(input: string, defaultCode = DEFAULT_PHONE_CODE): string | null {
  let digits = input.trim().replace(/[\s\-().]/g, '');
  if (digits.startsWith('00')) digits = `+${digits.slice(2)}`;
  if (/^\d{8}$/.test(digits)) digits = `+${defaultCode}${digits}`;
  const phone = normalisePhone(digits);
  return phone && isValidPhone(phone) ? phone : null;
}
