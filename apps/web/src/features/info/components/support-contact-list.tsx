import { Link } from 'react-router';
import { useSession } from '../../session/session-context.tsx';
import { supportContactsFor } from '../support-contacts.ts';

/** The service-desk contacts this user should see (booking spec §6); also used by the footer. */
export function SupportContactList() {
  const { session } = useSession();
  const contacts = supportContactsFor(session.status === 'signed-in' ? session.user : null);
  return (
    <ul className="support-contacts">
      {contacts.map((c) => (
        <li key={c.label}>
          {c.phone && (
            <>
              {c.label}: <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`}>{c.phone}</a>
            </>
          )}
          {c.email && (
            <>
              {c.label}: <a href={`mailto:${c.email}`}>{c.email}</a>
            </>
          )}
          {c.href && <Link to={c.href}>{c.label}</Link>}
        </li>
      ))}
    </ul>
  );
}
