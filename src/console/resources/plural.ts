/**
 * A noun's plural by the English rule a screen's nouns follow: tax → taxes, branch → branches,
 * company → companies, day → days, delivery fee → delivery fees. A noun the rule does not fit
 * gives its own (`ResourceConfig.plural`).
 */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  return `${noun}s`;
}
