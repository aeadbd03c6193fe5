import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sv } from './catalogues/sv.ts';
import { en } from './catalogues/en.ts';
import { ar } from './catalogues/ar.ts';
import { so } from './catalogues/so.ts';
import { ti } from './catalogues/ti.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from './languages.ts';

/**
 * One i18next instance for the web, with every catalogue bundled (together about the size of one page's code, and
 * a change of language then never waits for the network). Swedish is the fallback for a missing key. React escapes
 * what it renders, so i18next must not escape again.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { sv: { translation: sv }, en: { translation: en }, ar: { translation: ar }, so: { translation: so }, ti: { translation: ti } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGE_CODES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof sv };
  }
}
