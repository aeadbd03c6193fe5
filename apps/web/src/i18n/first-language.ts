import type { Translation } from './catalogue-shape.ts';
import { chooseLanguage, screenLanguage } from './language-choice.ts';
import { LANGUAGE_CODES, type LanguageCode } from './languages.ts';

/**
 * What the first screen's language needs, without React or the translator, so that app/early-start.ts can ask for that
 * language's texts while the app's bundle still downloads: a visitor whose browser is in English, Arabic, Somali or
 * Tigrinya otherwise waits for the bundle, then for the texts, one round trip more before anything is shown.
 */

/** Browser storage key of the language a person chose; nothing else is kept about it. */
export const LANGUAGE_STORAGE_KEY = 'language';

export function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null; // storage blocked: the browser's language still applies
  }
}

export const browserLanguages = (): readonly string[] => (typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]);

/** Each language's texts but Swedish (which the app's bundle holds), in a chunk of its own. */
export const CATALOGUES: Record<Exclude<LanguageCode, 'sv'>, () => Promise<Translation>> = {
  en: () => import('./catalogues/en.ts').then((m) => m.en),
  ar: () => import('./catalogues/ar.ts').then((m) => m.ar),
  so: () => import('./catalogues/so.ts').then((m) => m.so),
  ti: () => import('./catalogues/ti.ts').then((m) => m.ti),
};

/**
 * The language of the first screen, as main.tsx will show it (language-store's first state): a staff screen in
 * Swedish, an external one in the person's choice, else their browser's. Every language counts as offered until the
 * configuration is read, as there.
 */
export const firstScreenLanguage = (pathname: string, stored: string | null, browser: readonly string[]): LanguageCode =>
  screenLanguage(pathname, chooseLanguage({ stored, browser, enabled: LANGUAGE_CODES }));

/** Starts fetching the texts of the screen at `pathname` in the person's language, when they are not Swedish. */
export function prefetchFirstLanguage(pathname: string): void {
  const language = firstScreenLanguage(pathname, readStoredLanguage(), browserLanguages());
  if (language !== 'sv') void CATALOGUES[language]().catch(() => {});
}
