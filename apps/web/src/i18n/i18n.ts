import { sv } from './catalogues/sv.ts';
import { CATALOGUES } from './first-language.ts';
import { DEFAULT_LANGUAGE, type LanguageCode } from './languages.ts';
import { Translator } from './translator.ts';

/**
 * The web's texts. Swedish, the fallback for a missing key, is bundled; every other catalogue is fetched the first
 * time its language is shown (`loadLanguage`): together they were four fifths of the texts' code, parsed on every
 * page by everyone, most of whom never see them.
 */
export const i18n = new Translator(DEFAULT_LANGUAGE, { sv });

/** Whether a language's texts are here, so that it can be shown at once. */
export const hasLanguage = (code: LanguageCode): boolean => i18n.hasLanguage(code);

const loading = new Map<LanguageCode, Promise<void>>();

/** Fetches a language's catalogue (once; a failed fetch may be tried again). */
export function loadLanguage(code: LanguageCode): Promise<void> {
  if (hasLanguage(code)) return Promise.resolve();
  let load = loading.get(code);
  if (!load) {
    load = CATALOGUES[code as Exclude<LanguageCode, 'sv'>]().then(
      (catalogue) => i18n.addCatalogue(code, catalogue),
      (err: unknown) => {
        loading.delete(code);
        throw err;
      },
    );
    loading.set(code, load);
  }
  return load;
}
