import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loginUrl } from '../session-context.tsx';

interface ErrorText {
  kind: 'unauthorized' | 'forbidden' | 'notFound' | 'gone' | 'gatewayTimeout' | 'internal';
  heading: string;
  body: string;
}

/** Booking spec §8: 401, 403, 404, 410 and 504 each have their page; 500 and all others the internal error. */
export function errorTextFor(status: number): ErrorText {
  switch (status) {
    case 401:
      return { kind: 'unauthorized', heading: 'Du är inte inloggad', body: 'Du behöver logga in för att se sidan. Din inloggning kan också ha gått ut.' };
    case 403:
      return { kind: 'forbidden', heading: 'Du har inte behörighet', body: 'Du har inte behörighet att se sidan eller göra det du försökte göra.' };
    case 404:
      return { kind: 'notFound', heading: 'Sidan hittades inte', body: 'Sidan eller mötet du söker finns inte. Kontrollera adressen eller länken och försök igen.' };
    case 410:
      return { kind: 'gone', heading: 'Sidan finns inte längre', body: 'Det du söker har tagits bort och finns inte längre.' };
    case 504:
      return { kind: 'gatewayTimeout', heading: 'Tjänsten svarar inte', body: 'Det tog för lång tid att få svar från tjänsten. Vänta en stund och försök igen.' };
    default:
      return { kind: 'internal', heading: 'Något gick fel', body: 'Ett tekniskt fel uppstod hos oss. Försök igen om en stund.' };
  }
}

function ErrorView({ status }: { status: number }) {
  const text = errorTextFor(status);
  useDocumentTitle(`Videomöte - ${text.heading}`);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="page-card" data-error-kind={text.kind}>
      <h1 ref={heading} tabIndex={-1}>
        {text.heading}
      </h1>
      <p className="lead">{text.body}</p>
      {status > 0 && <p className="status-code">Felkod: {status}</p>}
      <ul className="link-list">
        {status === 401 && (
          <li>
            <a href={loginUrl('/meetings')}>Logga in</a>
          </li>
        )}
        <li>
          <Link to="/">Till startsidan</Link>
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
