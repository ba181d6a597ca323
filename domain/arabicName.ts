/**
 * The rule of an Arabic name (name_ar) that the console's forms check before sending; the server
 * checks the same (server/http/language.ts ArabicName). Empty: none, the English name is shown.
 */
export const ARABIC_NAME_MAX = 120;
/** Empty (blank), or with at least one letter of the Arabic block: the server's JSON-schema pattern. */
export const ARABIC_NAME_PATTERN = '^\\s*$|[\\u0600-\\u06FF]';
export const ARABIC_LETTER = /[\u0600-\u06FF]/;
export const ARABIC_NAME_MESSAGE = 'The Arabic name must be written in Arabic letters (or left empty).';
/** The same rule for a longer Arabic text (a branch's address and delivery text). */
export const ARABIC_TEXT_MESSAGE = 'Write it in Arabic letters (or leave it empty).';

export function arabicNameError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (v.length > ARABIC_NAME_MAX) return `The Arabic name has at most ${ARABIC_NAME_MAX} characters.`;
  if (!ARABIC_LETTER.test(v)) return ARABIC_NAME_MESSAGE;
  return null;
}
