import { Link } from 'react-router';
import { useSession } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { AccessibilityReportForm } from '../components/accessibility-report-form.tsx';
import { SUPPORT } from '../support-contacts.ts';

/**
 * /accessability (the spec's spelling): the accessibility statement that the law on accessibility of digital
 * public services (DOS-lagen, 2018:1937) requires, in the structure DIGG prescribes, with the feedback form.
 */
export function AccessibilityPage() {
  useDocumentTitle('Videomöte - Tillgänglighetsredogörelse');
  const { session } = useSession();
  const isAdmin = session.status === 'signed-in' && session.user.isAdmin;
  return (
    <article>
      <h1>Tillgänglighetsredogörelse för Videomöte</h1>
      {isAdmin && (
        <p>
          <Link to="/admin/tillganglighet">Visa inkomna rapporter om tillgänglighet</Link>
        </p>
      )}
      <p className="lead">
        Arbetsförmedlingen står bakom Videomöte. Vi vill att så många som möjligt ska kunna använda tjänsten. Den här redogörelsen beskriver hur
        Videomöte uppfyller lagen om tillgänglighet till digital offentlig service, kända tillgänglighetsproblem och hur du kan rapportera brister
        till oss.
      </p>

      <section aria-labelledby="a11y-status">
        <h2 id="a11y-status">Hur tillgänglig är tjänsten?</h2>
        <p>
          Vi bedömer att Videomöte är delvis förenlig med lagen om tillgänglighet till digital offentlig service, på grund av de brister som
          beskrivs nedan. Tjänsten är utformad för att uppfylla WCAG 2.1 på nivå AA.
        </p>
      </section>

      <section aria-labelledby="a11y-alternatives">
        <h2 id="a11y-alternatives">Vad kan du göra om du inte kan använda delar av tjänsten?</h2>
        <p>
          Om du behöver innehåll från Videomöte i ett annat format, eller inte kan delta i ett videomöte, kan du kontakta oss. Vi kan till exempel
          boka ett telefonmöte, ett fysiskt möte eller ett möte med tolk eller teckenspråkstolk.
        </p>
        <ul>
          <li>
            Telefon: {SUPPORT.externalServiceDesk.phone} ({SUPPORT.helpHours})
          </li>
          <li>
            E-post: <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>
          </li>
        </ul>
      </section>

      <section aria-labelledby="a11y-report-heading">
        <h2 id="a11y-report-heading">Rapportera brister i tjänstens tillgänglighet</h2>
        <p>
          Vi strävar hela tiden efter att förbättra tillgängligheten. Om du upptäcker problem som inte beskrivs på den här sidan, eller om du anser
          att vi inte uppfyller lagens krav, berätta det för oss så att vi får veta att problemet finns.
        </p>
        <AccessibilityReportForm />
      </section>

      <section aria-labelledby="a11y-supervision">
        <h2 id="a11y-supervision">Tillsyn</h2>
        <p>
          Myndigheten för digital förvaltning (Digg) har ansvaret för tillsyn över lagen om tillgänglighet till digital offentlig service. Om du
          inte är nöjd med hur vi hanterar dina synpunkter kan du kontakta Digg och påtala det.
        </p>
      </section>

      <section aria-labelledby="a11y-technical">
        <h2 id="a11y-technical">Teknisk information om tjänstens tillgänglighet</h2>
        <p>Videomöte är delvis förenlig med lagen om tillgänglighet till digital offentlig service, på grund av de brister som beskrivs nedan.</p>
        <h3>Innehåll som inte är tillgängligt</h3>
        <ul>
          <li>Ljud och bild i ett pågående möte textas inte automatiskt. Boka tolk eller teckenspråkstolk till mötet vid behov.</li>
          <li>Delad skärm visas som en bild. Innehållet i en delad skärm kan inte läsas av en skärmläsare.</li>
          <li>Chattmeddelanden läses upp av skärmläsare när de kommer, men emojier beskrivs bara med sina namn.</li>
        </ul>
      </section>

      <section aria-labelledby="a11y-testing">
        <h2 id="a11y-testing">Hur vi testat tjänsten</h2>
        <p>
          Vi testar Videomöte löpande: automatiska tester med verktyget axe på varje sida vid varje ändring, och manuella tester med tangentbord,
          skärmläsare och förstoring. Redogörelsen uppdaterades senast den 21 november 2026.
        </p>
        <p>
          Läs också om <Link to="/personaldata">hur vi hanterar personuppgifter</Link> och få hjälp på sidan{' '}
          <Link to="/usersupport">Användarstöd</Link>.
        </p>
      </section>
    </article>
  );
}
