import { useState } from 'react';
import { SIGNUP_LINK_LABEL, type MeetingInvitations } from '@videomote/contract/meetings';
import { useQuery } from '../../../lib/use-query.ts';
import { getInvitations } from '../api/get-invitations.ts';
import { renewSignupCode } from '../api/renew-signup-code.ts';

export const LINK_TEXTS = {
  renew: 'Byt länk för självregistrering',
  renewQuestion: 'Den nuvarande länken slutar fungera direkt. Den som redan har registrerat sig är kvar i mötet.',
  renewConfirm: 'Ja, byt länk',
  renewCancel: 'Avbryt',
  renewed: 'Länken för självregistrering är bytt. Den gamla länken fungerar inte längre.',
  renewFailed: 'Länken kunde inte bytas. Försök igen.',
} as const;

/** Meeting links and mail invitations per participant (admins only; the server returns nothing to others). */
export function MeetingLinks({ meetingId }: { meetingId: string }) {
  const query = useQuery(['invitations', meetingId], (signal) => getInvitations(meetingId, signal));
  // A renewed sign-up code comes back with the links: shown instead of the fetched ones.
  const [renewed, setRenewed] = useState<MeetingInvitations | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [renewStatus, setRenewStatus] = useState<string | null>(null);
  const data = renewed ?? query.data;
  if (query.error) return <p role="alert">Länkarna kunde inte hämtas.</p>;
  if (!data) return <p>Hämtar länkar...</p>;

  const renew = async () => {
    setConfirming(false);
    try {
      setRenewed(await renewSignupCode(meetingId));
      setRenewStatus(LINK_TEXTS.renewed);
    } catch {
      setRenewStatus(LINK_TEXTS.renewFailed);
    }
  };
  return (
    <>
      <h4>Möteslänkar</h4>
      <ul className="vm-links">
        {data.links.map((l) => (
          <li key={l.label}>
            {l.label}: <a href={l.url}>{l.url}</a>
            {l.label === SIGNUP_LINK_LABEL && (
              <div className="vm-renew">
                {confirming ? (
                  <div role="group" aria-label={LINK_TEXTS.renew}>
                    <p>{LINK_TEXTS.renewQuestion}</p>
                    <div className="vm-row">
                      <button type="button" className="vm-button" onClick={() => void renew()}>
                        {LINK_TEXTS.renewConfirm}
                      </button>
                      <button type="button" className="vm-button vm-button--secondary" onClick={() => setConfirming(false)} autoFocus>
                        {LINK_TEXTS.renewCancel}
                      </button>
                    </div>
                  </div>
                ) : (
                  <button type="button" className="vm-button vm-button--secondary" onClick={() => setConfirming(true)}>
                    {LINK_TEXTS.renew}
                  </button>
                )}
                <p role="status">{renewStatus}</p>
              </div>
            )}
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
