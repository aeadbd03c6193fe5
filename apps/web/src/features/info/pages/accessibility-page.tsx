import { Link } from 'react-router';
import { Trans } from '../../../i18n/trans.tsx';
import { useTexts } from '../../../i18n/use-texts.ts';
import { useSession } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { AccessibilityReportForm } from '../components/accessibility-report-form.tsx';
import { SUPPORT } from '../support-contacts.ts';

/**
 * /accessability (the spec's spelling): the accessibility statement that the law on accessibility of digital
 * public services (DOS-lagen, 2018:1937) requires, in the structure DIGG prescribes, with the feedback form.
 */
export function AccessibilityPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('accessibility.pageTitle') }));
  const { session } = useSession();
  const isAdmin = session.status === 'signed-in' && session.user.isAdmin;
  return (
    <article>
      <h1>{t('accessibility.title')}</h1>
      {isAdmin && (
        <p>
          <Link to="/admin/tillganglighet">{t('accessibility.reportsLink')}</Link>
        </p>
      )}
      <p className="lead">{t('accessibility.lead')}</p>

      <section aria-labelledby="a11y-status">
        <h2 id="a11y-status">{t('accessibility.statusHeading')}</h2>
        <p>{t('accessibility.status')}</p>
      </section>

      <section aria-labelledby="a11y-alternatives">
        <h2 id="a11y-alternatives">{t('accessibility.alternativesHeading')}</h2>
        <p>{t('accessibility.alternatives')}</p>
        <ul>
          <li>{t('accessibility.phone', { phone: SUPPORT.externalServiceDesk.phone, hours: t('support.helpHours') })}</li>
          <li>
            {t('accessibility.email')} <a href={`mailto:${SUPPORT.email}`}>{SUPPORT.email}</a>
          </li>
        </ul>
      </section>

      <section aria-labelledby="a11y-report-heading">
        <h2 id="a11y-report-heading">{t('accessibility.reportHeading')}</h2>
        <p>{t('accessibility.report')}</p>
        <AccessibilityReportForm />
      </section>

      <section aria-labelledby="a11y-supervision">
        <h2 id="a11y-supervision">{t('accessibility.supervisionHeading')}</h2>
        <p>{t('accessibility.supervision')}</p>
      </section>

      <section aria-labelledby="a11y-technical">
        <h2 id="a11y-technical">{t('accessibility.technicalHeading')}</h2>
        <p>{t('accessibility.technical')}</p>
        <h3>{t('accessibility.notAccessibleHeading')}</h3>
        <ul>
          <li>{t('accessibility.notAccessible1')}</li>
          <li>{t('accessibility.notAccessible2')}</li>
          <li>{t('accessibility.notAccessible3')}</li>
        </ul>
      </section>

      <section aria-labelledby="a11y-testing">
        <h2 id="a11y-testing">{t('accessibility.testingHeading')}</h2>
        <p>{t('accessibility.testing')}</p>
        <p>
          <Trans i18nKey="accessibility.readAlso" components={{ personalData: <Link to="/personaldata" />, support: <Link to="/usersupport" /> }} />
        </p>
      </section>
    </article>
  );
}
