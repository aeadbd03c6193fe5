import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sv } from './catalogues/sv.ts';
import { CATALOGUES } from './first-language.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from './languages.ts';

/**
 * One i18next instance for the web. Swedish, the fallback for a missing key, is bundled; every other catalogue is
 * fetched the first time its language is shown (`loadLanguage`): together they were four fifths of the texts'
 * code, parsed on every page by everyone, most of whom never see them. React escapes what it renders, so i18next
 * must not escape again.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { sv: { translation: sv } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGE_CODES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Whether a language's texts are here, so that it can be shown at once. */
export const hasLanguage = (code: LanguageCode): boolean => i18n.hasResourceBundle(code, 'translation');

const loading = new Map<LanguageCode, Promise<void>>();

/** Fetches a language's catalogue (once; a failed fetch may be tried again). */
export function loadLanguage(code: LanguageCode): Promise<void> {
  if (code === 'sv' || hasLanguage(code)) return Promise.resolve();
  let load = loading.get(code);
  if (!load) {
    load = CATALOGUES[code]().then(
      (catalogue) => void i18n.addResourceBundle(code, 'translation', catalogue),
      (err: unknown) => {
        loading.delete(code);
        throw err;
      },
    );
    loading.set(code, load);
  }
  return load;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof sv };
  }
}
