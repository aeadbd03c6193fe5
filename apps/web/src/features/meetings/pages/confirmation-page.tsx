import { Link, useLocation, useParams } from 'react-router';
import type { Meeting } from '@videomote/contract/meetings';
import { localDate, localTime } from '@videomote/contract/meeting-rules';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery } from '../../../lib/use-query.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { getMeeting } from '../api/get-meeting.ts';
import { MeetingLinks } from '../components/meeting-links.tsx';
import { TYPE_LABELS } from '../model/meeting-time.ts';
import '../meetings.css';

/** After create (/saved) and update (/updated): the meeting with its invitation and meeting links (spec §2). */
export function ConfirmationPage() {
  useDocumentTitle('Mötet är sparat - Videomöte');
  const { id } = useParams();
  const state = useLocation().state as { meeting?: Meeting } | null;
  const carried = state?.meeting?.id === id ? state!.meeting! : null;
  // Fetched only when the navigation did not carry it (a reload); a failure has taken the user to /error.
  const fetched = useQuery(carried || !id ? null : ['meeting', id], (signal) => getMeeting(id!, { signal }));
  const meeting = carried ?? fetched.data ?? null;
  if (!meeting) return <LoadingSpinner label="Hämtar mötet..." />;
  const start = new Date(meeting.startTime);
  return (
    <div className="vm-page">
      <h1>Mötet är sparat</h1>
      <p>
        <strong>{meeting.title}</strong>, {TYPE_LABELS[meeting.type].toLowerCase()} {localDate(start)} kl. {localTime(start)}–{localTime(new Date(meeting.endTime))}.
      </p>
      {meeting.currentUserIsAdmin && <MeetingLinks meetingId={meeting.id!} />}
      <div className="vm-row vm-section">
        <Link className="vm-button" to={`/meetings/${meeting.id}/lobby`}>
          Gå till mötet
        </Link>
        <Link className="vm-button vm-button--secondary" to="/meetings">
          Dina videomöten
        </Link>
      </div>
    </div>
  );
}

export function DeletedPage() {
  useDocumentTitle('Mötet är borttaget - Videomöte');
  return (
    <div className="vm-page">
      <h1>Mötet är borttaget</h1>
      <Link className="vm-button vm-button--secondary" to="/meetings">
        Dina videomöten
      </Link>
    </div>
  );
}
