import { Type } from 'typebox';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { DEFAULT_LANGUAGE, LANGUAGES, type LanguageCode } from '../../domain/languages';
import { ARABIC_NAME_MAX, ARABIC_NAME_PATTERN } from '../../domain/arabicName';

/**
 * The language a request asks for (Accept-Language, best q first; 'ar-KW' is Arabic), among the
 * languages the product speaks; English when none of them is asked for.
 */
export function requestLanguage(headers: Record<string, unknown>): LanguageCode {
  const header = headers['accept-language'];
  if (typeof header !== 'string' || !header) return DEFAULT_LANGUAGE;
  const asked = header.split(',').map((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? 1);
    return { code: tag.trim().split('-')[0].toLowerCase(), q: Number.isFinite(q) ? q : 0, i };
  }).filter((a) => a.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  return (asked.find((a) => LANGUAGES.some((l) => l.code === a.code))?.code as LanguageCode | undefined) ?? DEFAULT_LANGUAGE;
}

/**
 * An Arabic name (name_ar) as the console writes it: empty clears it, and the shop shows the
 * English name; otherwise at most 120 characters with at least one Arabic letter, so an English
 * name typed into the Arabic field is refused rather than shown to Arabic readers.
 */
export const ArabicName = Type.String({ maxLength: ARABIC_NAME_MAX, pattern: ARABIC_NAME_PATTERN, description: 'The Arabic name; empty for none (the English name is shown).' });
/** A longer Arabic text (a branch's address, its delivery text): the same rule as ArabicName, a longer limit. */
export const ArabicText = (maxLength: number) =>
  Type.String({ maxLength, pattern: ARABIC_NAME_PATTERN, description: 'The text in the Arabic shop, in Arabic letters; empty for none (the English text is shown).' });
/** The stored Arabic name: null for an empty one. */
export const arabicOrNull = (value: string) => value.trim() || null;

/** A name in the request's language: the Arabic one when asked for and present, else the English one. */
export const inLanguage = (language: LanguageCode, english: string, arabic: string | null | undefined): string =>
  language === 'ar' && arabic ? arabic : english;

/** The same choice made by the database, for a selected column. */
export const localizedColumn = (language: LanguageCode, english: AnyColumn, arabic: AnyColumn): SQL<string> =>
  language === 'ar' ? sql<string>`coalesce(nullif(${arabic}, ''), ${english})` : sql<string>`${english}`;
