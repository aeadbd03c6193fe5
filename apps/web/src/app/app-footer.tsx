import { Link } from 'react-router';
import { useTexts } from '../i18n/use-texts.ts';
import { SupportContactList } from '../features/info/components/support-contact-list.tsx';

/** Footer: service-desk hours on weekdays 08:00-16:30 and the contacts this user's role should see (spec §2, §6). */
export function AppFooter() {
  const { t } = useTexts();
  return (
    <footer className="app-footer">
      <div className="app-footer__inner">
        <section aria-labelledby="footer-support">
          <h2 id="footer-support">{t('shell.footerSupport')}</h2>
          <p>{t('shell.footerOpen', { hours: t('support.footerHours') })}</p>
          <SupportContactList />
        </section>
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">{t('shell.footerAbout')}</h2>
          <ul>
            <li>
              <Link to="/usersupport">{t('shell.userSupport')}</Link>
            </li>
            <li>
              <Link to="/personaldata">{t('shell.footerPersonalData')}</Link>
            </li>
            <li>
              <Link to="/accessability">{t('shell.footerAccessibility')}</Link>
            </li>
          </ul>
        </section>
      </div>
    </footer>
  );
}
