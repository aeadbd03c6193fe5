import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Meeting, MeetingWeek } from '@videomote/contract/meetings';
import { isoWeekOf, isoWeekRange, startOfLocalDay } from '@videomote/contract/meeting-rules';
import { useUser } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useQuery, type Query } from '../../../lib/use-query.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { listDayMeetings } from '../api/list-day-meetings.ts';
import { listWeekMeetings } from '../api/list-week-meetings.ts';
import { getMeetingWeeks } from '../api/get-meeting-weeks.ts';
import { deleteMeeting } from '../api/delete-meeting.ts';
import { MeetingCard } from '../components/meeting-card.tsx';
import { WeekPicker } from '../components/week-picker.tsx';
import { byStartTime } from '../model/meeting-time.ts';
import { DeleteDialog } from '../components/delete-dialog.tsx';
import { failureAdvice, HOME_TEXTS as T } from '../texts.ts';
import '../meetings.css';

/** The general error of a failed load, with its reset action: ask again (booking spec §4 errors). */
function LoadFailed({ title, error, onRetry }: { title: string; error: Error; onRetry(): void }) {
  return (
    <Alert variant="error" title={title} className="vm-load-error">
      <p>{failureAdvice(error)}</p>
      <button type="button" className="vm-button vm-button--secondary" onClick={onRetry}>
        {T.retry}
      </button>
    </Alert>
  );
}

/**
 * A list of meeting cards: loading, the general error with its reset action (booking spec §4 errors: a failed load
 * is never shown as an empty list), empty, or the cards.
 */
function MeetingList(props: { query: Query<Meeting[]>; loading: string; failed: string; empty: string; onDelete(meeting: Meeting): void; onChanged(): void }) {
  const { query } = props;
  if (query.error) return <LoadFailed title={props.failed} error={query.error} onRetry={query.reload} />;
  if (!query.data) return <LoadingSpinner label={props.loading} />;
  if (!query.data.length) return <p className="vm-empty">{props.empty}</p>;
  return (
    <ul className="vm-list">
      {query.data.map((m) => (
        <MeetingCard key={m.id} meeting={m} onDelete={props.onDelete} onChanged={props.onChanged} />
      ))}
    </ul>
  );
}

/** Home (spec §2): welcome, today's meetings, upcoming meetings by ISO week. */
export function HomePage() {
  useDocumentTitle('Mina möten - Videomöte');
  const user = useUser();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<MeetingWeek | null>(null);
  const [toDelete, setToDelete] = useState<Meeting | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  // Quiet calls: the page shows their failures in place instead of leaving for /error.
  const today = useQuery(['today'], (signal) => listDayMeetings(startOfLocalDay(new Date()), startOfLocalDay(new Date(), 1), { signal, quiet: true }).then(byStartTime));
  const weeks = useQuery(['weeks'], (signal) => getMeetingWeeks({ signal, quiet: true }));
  // Without the list of weeks (still loading, or failed) the week from tomorrow on is still worth showing.
  const week = chosen ?? (weeks.data || weeks.error ? (weeks.data?.[0] ?? isoWeekOf(startOfLocalDay(new Date(), 1))) : null);
  const upcoming = useQuery(week ? ['week', week.year, week.week] : null, (signal) => {
    const range = isoWeekRange(week!.year, week!.week);
    // Upcoming means from tomorrow on (spec §9), within the chosen week.
    const tomorrow = startOfLocalDay(new Date(), 1);
    const from = range.from > tomorrow ? range.from : tomorrow;
    return from < range.to ? listWeekMeetings(from, range.to, { signal, quiet: true }) : Promise.resolve([]);
  });

  // A lapsed session is not the list's failure: the error page says what to do (spec §8).
  const unauthorised = [today.error, weeks.error, upcoming.error].some((e) => e instanceof ApiError && e.status === 401);
  useEffect(() => {
    if (unauthorised) navigate('/error?status=401');
  }, [unauthorised, navigate]);

  // After a participant-count update the lists are read again (spec §4: the update goes to /meetings).
  const reload = useCallback(() => {
    today.reload();
    upcoming.reload();
  }, [today.reload, upcoming.reload]);

  async function confirmDelete() {
    if (!toDelete?.id) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteMeeting(toDelete.id);
      navigate('/meetings/deleted');
    } catch (err) {
      setDeleteError(`${T.deleteFailed} ${failureAdvice(err as Error)}`);
    } finally {
      setDeleting(false);
    }
  }

  const name = `${user.ciamGivenName} ${user.ciamFamilyName}`.trim();
  // The upcoming meetings are shown once today's are (or their failure): today's cards, taller than the spinner they
  // replace, would otherwise push the whole section down as they arrive, on a phone while someone reads or taps it
  // (a layout shift, measured by Lighthouse). Both lists are still asked for at once.
  const todayShown = Boolean(today.data || today.error);
  return (
    <div className="vm-page">
      <h1>Välkommen {name}</h1>
      <p className="vm-intro">
        Här kan du hålla samtal säkert på distans. Använd gärna headset och sitt på en plats där du kan prata ostört.
      </p>
      {user.features.includes('EditMeeting') && (
        <Link className="vm-button" to="/meetings/new">
          Skapa videomöte
        </Link>
      )}

      <section className="vm-section" aria-labelledby="today-heading">
        <h2 id="today-heading">Dagens möten</h2>
        <MeetingList query={today} loading="Hämtar dagens möten..." failed={T.todayFailed} empty="Du har inga möten inbokade idag" onDelete={setToDelete} onChanged={reload} />
      </section>

      {todayShown && (
        <section className="vm-section" aria-labelledby="upcoming-heading">
          <h2 id="upcoming-heading">Kommande möten</h2>
          {weeks.error && <LoadFailed title={T.weeksFailed} error={weeks.error} onRetry={weeks.reload} />}
          <WeekPicker weeks={weeks.data ?? []} selected={week} onSelect={setChosen} />
          <MeetingList
            query={upcoming}
            loading="Hämtar kommande möten..."
            failed={week ? T.weekFailed(week.week) : T.weeksFailed}
            empty="Du har inga fler möten"
            onDelete={setToDelete}
            onChanged={reload}
          />
        </section>
      )}

      {toDelete && (
        <DeleteDialog
          title="Ta bort mötet"
          text={`Vill du ta bort mötet "${toDelete.title}"? Deltagarna får inget meddelande om att mötet är borttaget.`}
          busy={deleting}
          error={deleteError}
          onConfirm={() => void confirmDelete()}
          onCancel={() => {
            setToDelete(null);
            setDeleteError(null);
          }}
        />
      )}
    </div>
  );
}
