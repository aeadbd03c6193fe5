import { useSyncExternalStore } from 'react';
import { i18n } from './i18n.ts';
import type { Translate } from './translator.ts';

/**
 * The texts of the language the current screen is shown in (`t('lobby.join')`, keys checked by TypeScript). `t` is a
 * new function after each change, so an effect that depends on it runs again in the new language.
 */
export const useTexts = (): { t: Translate } => useTextsIn(i18n.language);

/** The texts of one given language, whatever the screen's: for a dialog that belongs to the call just left. */
export function useTextsIn(language: string): { t: Translate } {
  // Renders again when the screen's language or a catalogue changes.
  useSyncExternalStore(i18n.subscribe, i18n.version, i18n.version);
  return { t: i18n.getFixedT(language) };
}
