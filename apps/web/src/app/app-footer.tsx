import { Link } from 'react-router';
import { SupportContactList } from '../features/info/components/support-contact-list.tsx';
import { SUPPORT } from '../features/info/support-contacts.ts';

/** Footer: service-desk hours on weekdays 08:00-16:30 and the contacts this user's role should see (spec §2, §6). */
export function AppFooter() {
  return (
    <footer className="app-footer">
      <div className="app-footer__inner">
        <section aria-labelledby="footer-support">
          <h2 id="footer-support">Kundtjänst</h2>
          <p>Öppet {SUPPORT.footerHours}</p>
          <SupportContactList />
        </section>
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">Om tjänsten</h2>
          <ul>
            <li>
              <Link to="/usersupport">Användarstöd</Link>
            </li>
            <li>
              <Link to="/personaldata">Så hanterar vi personuppgifter</Link>
            </li>
            <li>
              <Link to="/accessability">Tillgänglighetsredogörelse</Link>
            </li>
          </ul>
        </section>
      </div>
    </footer>
  );
}
