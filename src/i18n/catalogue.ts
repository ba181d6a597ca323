import rosetta from 'rosetta';
import { en, type Catalogue } from './en';

/**
 * The one catalogue the shop's texts are looked up in (src/i18n/index.ts `t`): rosetta holds the
 * first screens' English from the start; Arabic is set when its chunk loads, and the later
 * screens' English is added with them (src/i18n/screens.ts). Apart from index.ts so that the texts'
 * modules, which index.ts's types read, never lead back to it.
 */
export const i18n = rosetta<Catalogue>({ en: en as Catalogue });

/** Adds the English of screens loaded later (src/i18n/enScreens.ts) to the catalogue. */
export function addEnglish(texts: Partial<Catalogue>) {
  i18n.set('en', texts as Catalogue);
}
