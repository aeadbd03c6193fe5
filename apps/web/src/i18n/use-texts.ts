import { useTranslation } from 'react-i18next';
import { i18n } from './i18n.ts';

/**
 * The texts of the language the current screen is shown in (`t('lobby.join')`, keys checked by TypeScript).
 * Importing the instance here makes sure it is set up wherever a component is rendered, also in unit tests.
 */
export const useTexts = () => useTranslation('translation', { i18n });

/** The texts of one given language, whatever the screen's: for a dialog that belongs to the call just left. */
export const useTextsIn = (language: string) => useTranslation('translation', { i18n, lng: language });
