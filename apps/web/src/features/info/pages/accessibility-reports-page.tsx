import { useQuery } from '../../../lib/use-query.ts';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { RequireAdmin } from '../../session/components/require-admin.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { listAccessibilityReports } from '../api/list-accessibility-reports.ts';

const REPORTER: Record<string, string> = { staff: 'Medarbetare', eid: 'E-legitimerad', anonymous: 'Besökare i informationsmöte', none: 'Inte inloggad' };

const stockholm = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', dateStyle: 'short', timeStyle: 'short' });

function Reports() {
  // A failure leaves for /error through the shell's API error handling.
  const { data: reports } = useQuery(['accessibility-reports'], (signal) => listAccessibilityReports(signal));
  if (!reports) return <LoadingSpinner />;
  if (!reports.length) return <Alert variant="info">Det finns inga rapporter</Alert>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">Rapporter om brister i tillgängligheten, senaste först</caption>
      <thead>
        <tr>
          <th scope="col">Inkom</th>
          <th scope="col">Beskrivning</th>
          <th scope="col">Sida</th>
          <th scope="col">Kontakt</th>
          <th scope="col">Rapporterad av</th>
        </tr>
      </thead>
      <tbody>
        {reports.map((r) => (
          <tr key={r.id}>
            <td>{stockholm.format(new Date(r.createdAt))}</td>
            <td className="data-table__text">{r.description}</td>
            <td>{r.pageUrl ?? '–'}</td>
            <td>{r.contact ?? '–'}</td>
            <td>{REPORTER[r.reporterKind] ?? r.reporterKind}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Administrators read the accessibility problem reports sent from /accessability. */
export function AccessibilityReportsPage() {
  useDocumentTitle('Videomöte - Tillgänglighetsrapporter');
  return (
    <RequireAdmin>
      <article>
        <h1>Rapporter om tillgänglighet</h1>
        <p>
          Rapporter som användare har skickat från <Link to="/accessability">tillgänglighetsredogörelsen</Link>. Svara inom två veckor till den
          som har lämnat en kontaktuppgift.
        </p>
        <Reports />
      </article>
    </RequireAdmin>
  );
}
