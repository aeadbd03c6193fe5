import { useTexts } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { Link } from 'react-router';
import { useSession } from '../../session/session-context.tsx';
import { supportContactsFor } from '../support-contacts.ts';

/** The service-desk contacts this user should see (booking spec §6); also used by the footer. */
export function SupportContactList() {
  const { session } = useSession();
  const { t } = useTexts();
  const contacts = supportContactsFor(session.status === 'signed-in' ? session.user : null);
  return (
    <ul className="support-contacts">
      {contacts.map((c) => (
        <li key={c.label}>
          {c.phone && (
            <>
              {knownText(t, c.label)}: <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`}>{c.phone}</a>
            </>
          )}
          {c.email && (
            <>
              {knownText(t, c.label)}: <a href={`mailto:${c.email}`}>{c.email}</a>
            </>
          )}
          {c.href && <Link to={c.href}>{knownText(t, c.label)}</Link>}
        </li>
      ))}
    </ul>
  );
}
