import { errorTextFor } from '../features/session/error-texts.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/**
 * Shown when a route fails to render or load, e.g. its code is still missing after the one reload of
 * lib/chunk-reload.ts. Part of the main bundle, so it shows even when page chunks cannot be loaded.
 */
export function RouteError() {
  const text = errorTextFor(500);
  useDocumentTitle(`Videomöte - ${text.heading}`);
  return (
    <main id="main" className="page-card">
      <h1>{text.heading}</h1>
      <p className="lead">{text.body}</p>
      <p>
        {/* A full page load, which fetches the current version of the app. */}
        <a href="/">Till startsidan</a>
      </p>
    </main>
  );
}
