/**
 * Numbers as people type them. Arabic keyboards on iOS and Android type Arabic-Indic digits
 * (٠١٢٣٤٥٦٧٨٩, U+0660–U+0669) by default, and Persian keyboards the Extended ones (۰۱۲۳۴۵۶۷۸۹,
 * U+06F0–U+06F9). Every number a person types (a phone, a code, a car plate, a quantity) is read
 * through `asciiDigits` first, in the shop and on the server, so '٥٠٠٠١٢٣٥' is '50001235'.
 */
const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;
const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** The text with every Arabic-Indic and Persian digit written as its ASCII digit; nothing else changes. */
export function asciiDigits(text: string): string {
  return text.replace(EASTERN_DIGITS, (d) => {
    const c = d.charCodeAt(0);
    return String(c - (c >= EXTENDED_ARABIC_INDIC_ZERO ? EXTENDED_ARABIC_INDIC_ZERO : ARABIC_INDIC_ZERO));
  });
}

/** Only the digits of what was typed, as ASCII: a code or a phone field keeps these and drops the rest. */
export function typedDigits(text: string): string {
  return asciiDigits(text).replace(/\D/g, '');
}

/** A whole number typed into a field ('١٢' is 12), or null when it is not one. */
export function typedInteger(text: string): number | null {
  const t = asciiDigits(text).trim();
  return /^\d{1,15}$/.test(t) ? Number.parseInt(t, 10) : null;
}

/**
 * A car plate as saved and compared: ASCII digits, no spaces around it, single spaces inside,
 * Latin letters in capitals. '23/45678', ' ٢٣/٤٥٦٧٨ ' and '۲۳/۴۵۶۷۸' are one plate, '23/45678'.
 * Server-side the same rule is the SQL of migration 0046 (server/db/migrations/0046_plate_digits.sql).
 */
export function normalisePlate(text: string): string {
  return asciiDigits(text).trim().replace(/\s+/g, ' ').toUpperCase();
}
