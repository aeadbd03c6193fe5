import { useTexts } from '../i18n/use-texts.ts';
import { errorTextFor } from '../features/session/error-texts.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/**
 * Shown when a route fails to render or load, e.g. its code is still missing after the one reload of
 * lib/chunk-reload.ts. Part of the main bundle, so it shows even when page chunks cannot be loaded.
 */
export function RouteError() {
  const { t } = useTexts();
  const { kind } = errorTextFor(500);
  const text = { heading: t(`session.errors.${kind}.heading`), body: t(`session.errors.${kind}.body`) };
  useDocumentTitle(t('common.pageTitle', { page: text.heading }));
  return (
    <main id="main" className="page-card">
      <h1>{text.heading}</h1>
      <p className="lead">{text.body}</p>
      <p>
        {/* A full page load, which fetches the current version of the app. */}
        <a href="/">{t('session.toStart')}</a>
      </p>
    </main>
  );
}
