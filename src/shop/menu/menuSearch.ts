/**
 * Menu search (issue 24): a product matches when its name, in the language the menu came in,
 * holds every word typed. Arabic is compared as people type it on a phone: without short vowels
 * and tatweel, any alef (أ إ آ ٱ) as ا, ى as ي, ة as ه, ؤ as و and ئ as ي; Latin without case or accents.
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا').replace(/ى/g, 'ي').replace(/ة/g, 'ه').replace(/ؤ/g, 'و').replace(/ئ/g, 'ي')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `name` holds every word of the query (an empty query matches everything). */
export function matchesQuery(name: string, query: string): boolean {
  const words = searchKey(query).split(' ').filter(Boolean);
  if (!words.length) return true;
  const key = searchKey(name);
  return words.every((w) => key.includes(w));
}

interface Named { name: string }
type Type<P extends Named> = { id: number; name: string; subtypes: ({ id: number; name: string; products: (P | null)[] } | null)[] };

/** The menu with only the matching products, and no sub-type or type left empty. */
export function filterMenu<P extends Named, T extends Type<P>>(types: T[], query: string): T[] {
  if (!searchKey(query)) return types;
  return types
    .map((type) => ({
      ...type,
      subtypes: type.subtypes
        .map((sub) => sub && { ...sub, products: sub.products.filter((p) => p && matchesQuery(p.name, query)) })
        .filter((sub) => sub && sub.products.length > 0),
    }))
    .filter((type) => type.subtypes.length > 0);
}
