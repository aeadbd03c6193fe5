import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import '../public-access.css';

/** After a public webcast (booking spec §2): thanks, and the same link works again. */
export function PublicAccessEndPage() {
  useDocumentTitle('Videomöte - Mötet avslutat');
  return (
    <div className="public-access">
      <h1>Mötet avslutat!</h1>
      <p>Tack för att du deltog i informationsmötet.</p>
      <p>Om du vill gå tillbaka till mötet medan det pågår kan du använda samma länk igen.</p>
    </div>
  );
}
