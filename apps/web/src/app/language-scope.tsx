import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { hasLanguage, i18n, loadLanguage } from '../i18n/i18n.ts';
import { screenLanguage } from '../i18n/language-choice.ts';
import { setOfferedLanguages, useLanguageState } from '../i18n/language-store.ts';
import { directionOf } from '../i18n/languages.ts';
import { loadClientConfig } from '../lib/client-config.ts';

/**
 * Around every route: shows an external screen in the person's language and a staff screen in Swedish, and gives
 * the document its `lang` and `dir` so that screen readers pronounce it right and Arabic runs right to left (the
 * layout uses flex and logical properties, which follow `dir`).
 */
export function LanguageScope() {
  const { pathname } = useLocation();
  const { chosen } = useLanguageState();
  const language = screenLanguage(pathname, chosen);

  // Before paint, so a page never flashes in the previous language. A language not yet fetched (the person has
  // just chosen it) is shown once its texts are here; until then the screen stays as it was, not half translated.
  useLayoutEffect(() => {
    const show = () => {
      if (i18n.language !== language) i18n.changeLanguage(language);
      document.documentElement.lang = language;
      document.documentElement.dir = directionOf(language);
    };
    if (hasLanguage(language)) return show();
    let current = true;
    loadLanguage(language).then(
      () => current && show(),
      () => {
        // Not fetched (the network is gone): the screen stays in the language it is in.
      },
    );
    return () => {
      current = false;
    };
  }, [language]);

  useEffect(() => {
    void loadClientConfig().then(
      (c) => setOfferedLanguages(c.languages),
      () => {
        // Without the configuration every language stays offered; the page must still work.
      },
    );
  }, []);

  return <Outlet />;
}
