import { use, useEffect } from 'react';
import { storage, KEYS } from '../lib/storage';
import { formatMoney } from '../../domain/money';
import { customerLocaleOf, formatMoment, type Moment } from '../../domain/time';
import { LANGUAGES, DEFAULT_LANGUAGE, type LanguageCode } from '../../domain/languages';
import type { Catalogue } from './en';
import { i18n } from './catalogue';

/**
 * The shop's texts in English and Arabic (docs/decisions.md "Shop languages"). rosetta looks the
 * keys up (300 B); English ships with the shop, Arabic is a separate chunk loaded only when the
 * shop speaks Arabic. The language is fixed for a page load: a switch stores the choice and
 * reloads, so texts, server names (Accept-Language) and the document direction never mix.
 */
/** Dotted paths to the catalogue's texts: 'menu.title', 'cart.items'. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string | ((...args: never[]) => string) ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type TextKey = Leaves<Catalogue>;

let current: LanguageCode = DEFAULT_LANGUAGE;
let messages: Record<string, string> = {};

const isLanguage = (code: unknown): code is LanguageCode => LANGUAGES.some((l) => l.code === code);

/** The stored choice; else the browser's first language we speak; else English. */
export function preferredLanguage(): LanguageCode {
  const stored = storage.get(KEYS.language);
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of browser) {
    const code = tag?.split('-')[0]?.toLowerCase();
    if (isLanguage(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

/** Puts the language on the document: `lang`, `dir`; the GraphQL client sends `lang` as Accept-Language. */
export function applyToDocument(code: LanguageCode) {
  const rtl = LANGUAGES.find((l) => l.code === code)?.isRightToLeft ?? false;
  document.documentElement.lang = code;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
}

/**
 * Loads the shop's language before its first screen. An Arabic chunk that cannot be loaded
 * (offline) leaves the shop in English rather than blank.
 */
export async function startLanguage(code: LanguageCode = preferredLanguage()): Promise<LanguageCode> {
  if (code !== 'en') {
    try {
      const mod = await import('./ar');
      i18n.set(code, mod.ar);
      messages = mod.arMessages;
    } catch {
      code = 'en';
    }
  }
  current = code;
  i18n.locale(code);
  applyToDocument(code);
  return code;
}

export const language = () => current;

let ready: Promise<LanguageCode> | null = null;
/** The shop's language, settled once per page load (the shop and the registration both wait for it). */
export const languageReady = () => (ready ??= startLanguage());

/**
 * For a screen that speaks the shop's language (the shop, the registration): suspends until the
 * language is loaded and puts it on the document while mounted; the sign-in pages and the console
 * stay English, left to right, so leaving puts English back.
 */
export function useShopLanguage() {
  use(languageReady());
  useEffect(() => { applyToDocument(current); return () => applyToDocument('en'); }, []);
}

/** Stores the customer's choice and reloads the page in it. */
export function switchLanguage(code: LanguageCode) {
  storage.set(KEYS.language, code);
  window.location.reload();
}

/** The text of `key` in the shop's language, with `{{name}}` filled from `params`. */
export function t(key: TextKey, params?: Record<string, unknown>): string {
  const text = i18n.t(key, params);
  return text || (i18n.t(key, params, 'en') as string);
}

/**
 * A message that arrives as English text (SPEC.md's verbatim messages from the machines, a
 * server message the server did not translate): its Arabic when it has one, else as it came.
 */
export function translateMessage(text: string): string;
export function translateMessage(text: string | null | undefined): string | null | undefined;
export function translateMessage(text: string | null | undefined) {
  return text ? messages[text] ?? text : text;
}

/** Prices keep Latin digits and 3 decimals; the Kuwaiti dinar reads 'KD' or 'د.ك' (SPEC.md money). */
export function money(amount: number | string, currency = 'KD'): string {
  return formatMoney(amount, current === 'ar' && currency === 'KD' ? 'د.ك' : currency);
}

/** Items of a list in the shop's language: 'Large, Oat' or, with the Arabic comma, 'كبير، حليب الشوفان'. */
export const joinList = (items: readonly string[]) => items.join(t('product.listSeparator'));

/**
 * A date and time in the shop's language, Latin digits, on the brand's clock (domain/time.ts, Kuwait
 * by default), whatever the browser's zone: the tracker reads 14:30 where the console reads 14:30.
 */
export function dateTime(value: Moment, options: Intl.DateTimeFormatOptions): string {
  return formatMoment(value, options, customerLocaleOf(current));
}
