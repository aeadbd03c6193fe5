import { Link } from 'react-router';
import { CONSENT_TEXTS } from '../model/texts.ts';

/** The server gave no media token: the lobby's consent is missing (a bookmark or the back button skipped it). */
export function ConsentRequired({ meetingId, message }: { meetingId: string; message: string }) {
  return (
    <div className="consent-required" role="alert">
      <h2>{CONSENT_TEXTS.heading}</h2>
      <p>{message}</p>
      <Link className="consent-required__link" to={`/meetings/${encodeURIComponent(meetingId)}/lobby`}>
        {CONSENT_TEXTS.toLobby}
      </Link>
    </div>
  );
}
