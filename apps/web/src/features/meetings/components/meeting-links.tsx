import { useQuery } from '../../../lib/use-query.ts';
import { getInvitations } from '../api/get-invitations.ts';

/** Meeting links and mail invitations per participant (admins only; the server returns nothing to others). */
export function MeetingLinks({ meetingId }: { meetingId: string }) {
  const { data, error } = useQuery(['invitations', meetingId], (signal) => getInvitations(meetingId, signal));
  if (error) return <p role="alert">Länkarna kunde inte hämtas.</p>;
  if (!data) return <p>Hämtar länkar...</p>;
  return (
    <>
      <h4>Möteslänkar</h4>
      <ul className="vm-links">
        {data.links.map((l) => (
          <li key={l.url}>
            {l.label}: <a href={l.url}>{l.url}</a>
          </li>
        ))}
      </ul>
      {data.invitations.length > 0 && (
        <>
          <h4>Inbjudningar</h4>
          <ul className="vm-links">
            {data.invitations.map((inv) => (
              <li key={`${inv.audience}-${inv.participantId ?? inv.label}`}>
                <a href={inv.mailto}>{inv.label}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
