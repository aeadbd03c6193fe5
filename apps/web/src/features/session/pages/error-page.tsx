import { useTexts } from '../../../i18n/use-texts.ts';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loginUrl } from '../session-context.tsx';
import { errorTextFor } from '../error-texts.ts';

function ErrorView({ status }: { status: number }) {
  const { t } = useTexts();
  const { kind } = errorTextFor(status);
  const text = { heading: t(`session.errors.${kind}.heading`), body: t(`session.errors.${kind}.body`) };
  useDocumentTitle(t('common.pageTitle', { page: text.heading }));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="page-card" data-error-kind={kind}>
      <h1 ref={heading} tabIndex={-1}>
        {text.heading}
      </h1>
      <p className="lead">{text.body}</p>
      {status > 0 && <p className="status-code">{t('session.errorCode', { status })}</p>}
      <ul className="link-list">
        {status === 401 && (
          <li>
            <a href={loginUrl('/meetings')}>{t('session.login')}</a>
          </li>
        )}
        <li>
          <Link to="/">{t('session.toStart')}</Link>
        </li>
      </ul>
    </section>
  );
}

/** /error?status=NNN, where the shell sends failed API calls (booking spec §8). */
export function ErrorPage() {
  const [params] = useSearchParams();
  const status = Number(params.get('status'));
  return <ErrorView status={Number.isInteger(status) ? status : 500} />;
}

/** Any route that does not exist. */
export function NotFoundPage() {
  return <ErrorView status={404} />;
}
