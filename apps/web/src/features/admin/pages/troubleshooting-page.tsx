import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ERROR_SOURCE_LABELS, MISSING_DATA, type LiveSource } from '@videomote/contract/admin';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { formatStockholm } from '../stockholm-time.ts';
import { troubleshoot } from '../api/troubleshoot.ts';
import { TableScroll } from '../components/table-scroll.tsx';

const STATE_TEXT = { upcoming: 'Har inte börjat', ongoing: 'Pågår', ended: 'Avslutat' } as const;

function Live({ title, source }: { title: string; source: LiveSource }) {
  return (
    <section aria-labelledby={`live-${title}`}>
      <h3 id={`live-${title}`}>{title}</h3>
      {!source.available ? (
        <p className="muted">{source.reason || MISSING_DATA}</p>
      ) : (
        <>
          {source.state && <p>Tillstånd: {source.state}</p>}
          {source.connections.length === 0 ? (
            <p>Ingen är ansluten just nu.</p>
          ) : (
            <ul>
              {source.connections.map((c, i) => (
                <li key={i}>
                  {c.displayName}
                  {c.detail && <span className="muted"> – {c.detail}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** /admin/felsokning: look up a meeting by id or link; participants with roles, never personnummer. */
export function TroubleshootingPage() {
  useDocumentTitle('Videomöte - Felsökning');
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  // What was searched for last (only its answer is shown). A link to /admin/felsokning?q=... (e.g. shared between
  // administrators) looks the meeting up directly.
  const [searched, setSearched] = useState<string | null>(() => params.get('q') || null);
  const lookup = useQuery(searched === null ? null : ['admin-troubleshoot', searched], (signal) => troubleshoot(searched ?? '', signal));
  const result = lookup.data ?? null;
  const error = lookup.error ? lookup.error.message || 'Något gick fel' : null;
  const busy = lookup.loading;
  const search = (text: string) => {
    if (text === searched) lookup.reload();
    else setSearched(text);
  };

  const m = result?.meeting;
  return (
    <>
      <h1>Felsökning</h1>
      <form
        className="troubleshoot-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setParams(q.trim() ? { q: q.trim() } : {}, { replace: true });
          search(q);
        }}
      >
        <div className="ui-field">
          <label className="ui-field__label" htmlFor="troubleshoot-q">
            Mötes-id eller möteslänk
          </label>
          <span className="ui-field__hint" id="troubleshoot-hint">
            Till exempel en länk till lobbyn eller en länk till en webbsändning.
          </span>
          <input id="troubleshoot-q" className="ui-input" value={q} aria-describedby="troubleshoot-hint" onChange={(e) => setQ(e.target.value)} />
        </div>
        <Button type="submit" busy={busy}>
          Sök
        </Button>
      </form>
      <ErrorAlert message={error} />
      {result && m && (
        <div className="troubleshoot-result">
          <h2>{m.title}</h2>
          <dl className="facts">
            <dt>Mötes-id</dt>
            <dd>
              <code>{m.id}</code>
            </dd>
            <dt>Typ</dt>
            <dd>{m.type === 1 ? 'Webbsändning (informationsmöte)' : 'Samtalsmöte'}</dd>
            <dt>Tid</dt>
            <dd>
              {formatStockholm(m.startTime)} – {formatStockholm(m.endTime)}
            </dd>
            <dt>Status</dt>
            <dd>{STATE_TEXT[m.state]}</dd>
            <dt>Rums-id</dt>
            <dd>
              <code>{m.roomId}</code>
            </dd>
            <dt>Version</dt>
            <dd>{m.version}</dd>
            {m.type === 1 && (
              <>
                <dt>Självregistrerade presentatörer</dt>
                <dd>{m.selfRegistrations}</dd>
                <dt>Publik (senast rapporterat)</dt>
                <dd>{m.countInfoParticipants}</dd>
              </>
            )}
            <dt>Betyg</dt>
            <dd>
              {result.ratings.count === 0
                ? 'Inga betyg'
                : `${result.ratings.count} st, medel ${result.ratings.average?.toLocaleString('sv-SE')}`}
            </dd>
          </dl>
          {result.ratings.comments.length > 0 && (
            <section aria-labelledby="rating-comments">
              <h3 id="rating-comments">Kommentarer till betygen</h3>
              <ul className="rating-comments">
                {result.ratings.comments.map((c, i) => (
                  <li key={i}>
                    <span className="muted">
                      {formatStockholm(c.at)}, betyg {c.callQuality}:
                    </span>{' '}
                    {c.comment}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <h3>Inbjudna deltagare ({result.participants.length})</h3>
          <TableScroll label="Inbjudna deltagare">
            <table className="admin-table">
              <caption className="visually-hidden">Inbjudna deltagare</caption>
              <thead>
                <tr>
                  <th scope="col">Namn</th>
                  <th scope="col">Roll</th>
                  <th scope="col">Typ</th>
                  <th scope="col">Mötesadministratör</th>
                </tr>
              </thead>
              <tbody>
                {result.participants.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.displayName}</th>
                    <td>{p.roleLabel}</td>
                    <td>{p.kind === 'staff' ? 'Medarbetare' : 'Extern'}</td>
                    <td>{p.isAdmin ? 'Ja' : 'Nej'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Live title="Anslutna till chatten" source={result.chat} />
          <Live title="Anslutna till bild och ljud" source={result.media} />
          <section aria-labelledby="recent-errors">
            <h3 id="recent-errors">Senaste fel</h3>
            {result.recentErrors.available ? (
              result.recentErrors.items.length ? (
                <TableScroll label="Senaste fel">
                  <table className="admin-table">
                    <caption className="visually-hidden">Senaste fel, nyast först</caption>
                    <thead>
                      <tr>
                        <th scope="col">Tid</th>
                        <th scope="col">Källa</th>
                        <th scope="col">Kod</th>
                        <th scope="col">Meddelande</th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.recentErrors.items.map((e, i) => (
                        <tr key={i}>
                          <td>{formatStockholm(e.at)}</td>
                          <td>{ERROR_SOURCE_LABELS[e.source]}</td>
                          <td>
                            <code>{e.code}</code>
                          </td>
                          <td>{e.message}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              ) : (
                <p>Inga fel registrerade.</p>
              )
            ) : (
              <p className="muted">{result.recentErrors.reason}</p>
            )}
          </section>
        </div>
      )}
    </>
  );
}
