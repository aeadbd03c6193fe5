import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { TEXTS } from '../model/texts.ts';

/** After a webcast has ended (spec §2; its content is not specified beyond the title). */
export function ConferenceEndedPage() {
  useDocumentTitle(TEXTS.endedTitle);
  return (
    <main id="main" className="conference-ended">
      <h1>Mötet är avslutat</h1>
    </main>
  );
}
