import { useEffect } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button.tsx';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useMessagesStore } from '../components/messages-section.tsx';
import { AudienceBadges, MessageTypeIcon } from '../components/message-type.tsx';
import { formatStockholm } from '../stockholm-time.ts';
import { TableScroll } from '../components/table-scroll.tsx';

/** /admin/systemmeddelanden: every message, newest first; each row leads to its edit page. */
export function MessagesPage() {
  useDocumentTitle('Videomöte - Systemmeddelanden');
  const { messages, loadError, load, clear } = useMessagesStore();

  useEffect(() => {
    void load();
    return clear;
  }, [load, clear]);

  return (
    <>
      <div className="admin-heading">
        <h1>Systemmeddelanden</h1>
        <Link to="/admin/systemmeddelanden/new" className={buttonClass('primary')}>
          Skapa ny
        </Link>
      </div>
      <ErrorAlert message={loadError} />
      {messages === null && !loadError && <LoadingSpinner label="Hämtar meddelanden..." />}
      {messages?.length === 0 && <p>Det finns inga meddelanden</p>}
      {!!messages?.length && (
        <TableScroll label="Alla systemmeddelanden">
          <table className="admin-table messages-table">
            <caption className="visually-hidden">Systemmeddelanden</caption>
            <thead>
              <tr>
                <th scope="col">Typ</th>
                <th scope="col">Meddelande</th>
                <th scope="col">Start</th>
                <th scope="col">Slut</th>
                <th scope="col">Visas för</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>
                    <MessageTypeIcon type={m.type} />
                  </td>
                  <td>
                    <Link to={`/admin/systemmeddelanden/${m.id}/edit`} className="messages-table__text">
                      {m.value}
                    </Link>
                  </td>
                  <td className="nowrap">{formatStockholm(m.startTime)}</td>
                  <td className="nowrap">{formatStockholm(m.endTime)}</td>
                  <td>
                    <AudienceBadges message={m} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
