import { PHONE_COUNTRY_CODES } from './constants';
import { COUNTRIES } from './countries';
import { asciiDigits } from './digits';

/** The phone input's default country code (Kuwait). */
export const DEFAULT_PHONE_CODE: string = (COUNTRIES.find((c) => c.isDefault) ?? COUNTRIES[0]).phoneCode;

/**
 * A phone as a person types it, as E.164: '+965 5000 0001', '96550000001', '0096550000001' and
 * '+96550000001' are one phone, '+96550000001'; Arabic-Indic and Persian digits are read as digits
 * (domain/digits.ts); and the 8 local digits '5000 0001' take the default country's code (Kuwait,
 * +965), as the phone input does. The one rule for sign-in, registration, password reset, codes
 * and lists. Null if not a phone.
 */
export function normalisePhone(input: string, defaultCode = DEFAULT_PHONE_CODE): string | null {
  let digits = asciiDigits(input).trim().replace(/[\s\-().]/g, '');
  if (digits.startsWith('00')) digits = `+${digits.slice(2)}`;
  if (/^\d{8}$/.test(digits)) digits = `+${defaultCode}${digits}`;
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
  const text = asciiDigits(input).trim();
  if (!text || /^\+?\d{3}$/.test(text)) return 'missing';
  if (!/^\+?[\d\s\-()]+$/.test(text)) return 'notANumber';
  return isValidPhone(text) ? null : 'notAPhone';
}

/**
 * A phone as people type it in a list (a CSV of invitations, a staff form): normalisePhone's
 * reading, and only a valid phone (isValidPhone). The E.164 phone, or null.
 */
export function phoneFromText(input: string, defaultCode = DEFAULT_PHONE_CODE): string | null {
  const phone = normalisePhone(input, defaultCode);
  return phone && isValidPhone(phone) ? phone : null;
}
