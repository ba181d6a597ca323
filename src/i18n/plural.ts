/** The CLDR plural forms; Arabic uses all six (zero, one, two, few, many, other), English two. */
export type PluralForms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

const rules = new Map<string, Intl.PluralRules>();

/** The form of `forms` that `count` takes in `lang`, with `{n}` replaced by the count in Latin digits. */
export function plural(lang: string, count: number, forms: PluralForms): string {
  let r = rules.get(lang);
  if (!r) rules.set(lang, (r = new Intl.PluralRules(lang)));
  // Zero has its own CLDR rule only in Arabic; 'zero' written for English still reads "0 items".
  const form = forms[r.select(count)] ?? forms.other;
  return form.replace('{n}', String(count));
}
