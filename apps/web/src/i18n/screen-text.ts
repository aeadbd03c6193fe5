import { i18n } from './i18n.ts';

/**
 * A text in the language the screen is shown in now, for code outside React (the call's model, media and the
 * texts modules their constants live in). Read it when it is shown, not when a module loads: the texts modules
 * define their constants as getters over this, so a language change reaches them on the next render.
 */
export const screenText = i18n.t.bind(i18n);
