import { useSyncExternalStore } from 'react';
import { chooseLanguage, offeredLanguages } from './language-choice.ts';
import { LANGUAGE_CODES, type LanguageCode } from './languages.ts';
import { browserLanguages, LANGUAGE_STORAGE_KEY, readStoredLanguage } from './first-language.ts';

export { LANGUAGE_STORAGE_KEY } from './first-language.ts';

interface LanguageState {
  /** The person's language (their choice, else their browser's), used on the external screens. */
  chosen: LanguageCode;
  /** What the operator offers (`WEB_LANGUAGES`); every language until the configuration has been read. */
  offered: readonly LanguageCode[];
}

const listeners = new Set<() => void>();

function resolve(offered: readonly LanguageCode[]): LanguageState {
  return { chosen: chooseLanguage({ stored: readStoredLanguage(), browser: browserLanguages(), enabled: offered }), offered };
}

let state: LanguageState = typeof window === 'undefined' ? { chosen: 'sv', offered: LANGUAGE_CODES } : resolve(LANGUAGE_CODES);

function set(next: LanguageState) {
  if (next.chosen === state.chosen && next.offered.join() === state.offered.join()) return;
  state = next;
  for (const l of listeners) l();
}

/** The person picks a language in the switcher: remembered in this browser. */
export function chooseLanguageNow(code: LanguageCode) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // Not remembered, but still shown.
  }
  set(resolve(state.offered));
}

/** The server's configuration has been read: a language switched off is no longer offered or used. */
export function setOfferedLanguages(configured: readonly string[] | undefined) {
  set(resolve(offeredLanguages(configured)));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The person's language now, for code outside React (the first render waits for its texts). */
export const chosenLanguage = (): LanguageCode => state.chosen;

export const useLanguageState = (): LanguageState => useSyncExternalStore(subscribe, () => state, () => state);
