import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';

const SECTIONS = [
  { to: '/admin/groups', label: 'Grupper', text: 'Vilka roller som ger vilka funktioner och administratörsbehörighet.' },
  { to: '/admin/appsettings', label: 'AppSettings', text: 'Gällande konfiguration och funktionsväxlar.' },
  { to: '/admin/statistik', label: 'Statistik', text: 'Möten, deltagare, publik och betyg per dag och vecka.' },
  { to: '/admin/felsokning', label: 'Felsökning', text: 'Slå upp ett möte med id eller länk.' },
  { to: '/admin/systemmeddelanden', label: 'Systemmeddelanden', text: 'Meddelanden som visas för användarna.' },
];

export function AdminPage() {
  useDocumentTitle('Videomöte - Administration');
  return (
    <>
      <h1>Administration</h1>
      <ul className="admin-sections">
        {SECTIONS.map((s) => (
          <li key={s.to}>
            <Link to={s.to}>{s.label}</Link>
            <p>{s.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

export function AdminNotFound() {
  useDocumentTitle('Videomöte - Administration');
  return (
    <>
      <h1>Sidan hittades inte</h1>
      <p>
        <Link to="/admin">Till administrationen</Link>
      </p>
    </>
  );
}
