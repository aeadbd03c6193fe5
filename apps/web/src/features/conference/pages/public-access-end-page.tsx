import { useTexts } from '../../../i18n/use-texts.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { PAGE_TEXTS } from '../model/texts.ts';

/** After a webcast has ended (spec §2; its content is not specified beyond the title). */
export function ConferenceEndedPage() {
  // The texts are read in the screen's language; this re-renders the page when the language changes.
  useTexts();
  useDocumentTitle(PAGE_TEXTS.endedTitle);
  return (
    <main id="main" className="conference-ended">
      <h1>{PAGE_TEXTS.endedHeading}</h1>
    </main>
  );
}
