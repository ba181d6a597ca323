import { addEnglish } from './catalogue';
import { enScreens } from './enScreens';

/** Imported by each screen behind the first one: adds their English (enScreens.ts) before the screen renders. */
addEnglish(enScreens);
