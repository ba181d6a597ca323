/**
 * The languages the product speaks (ARCHITECTURE.md: English and Arabic, right to left), served by
 * Brand/GetLanguagesDictionary. A brand's default language is one of these: a language exists
 * only where its translations ship with the code, so the list lives here, not in a table.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English', isRightToLeft: false },
  { code: 'ar', name: 'Arabic', nativeName: 'العربية', isRightToLeft: true },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'en';
