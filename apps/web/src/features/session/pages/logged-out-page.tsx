import { useTexts } from '../../../i18n/use-texts.ts';
import { useEffect, useRef } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loginUrl } from '../session-context.tsx';

/**
 * /logged-out: the 'Automatisk utloggning' dialog after an inactivity logout (booking spec §2). It is the whole
 * page, so it is shown as a non-modal dialog that takes focus; nothing behind it needs to be inert.
 */
export function LoggedOutPage() {
  const { t } = useTexts();
  useDocumentTitle(t('common.pageTitle', { page: t('session.loggedOutTitle') }));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="page-card logged-out" role="dialog" aria-labelledby="logged-out-title" aria-describedby="logged-out-text">
      <h1 id="logged-out-title" ref={heading} tabIndex={-1}>
        {t('session.loggedOutTitle')}
      </h1>
      <p id="logged-out-text" className="lead">
        {t('session.loggedOutText')}
      </p>
      <p>
        <a className="ui-button ui-button--primary" href={loginUrl('/meetings')}>
          {t('session.loginAgain')}
        </a>
      </p>
    </section>
  );
}
