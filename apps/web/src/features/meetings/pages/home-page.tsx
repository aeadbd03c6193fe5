import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Meeting, MeetingWeek } from '@videomote/contract/meetings';
import { isoWeekOf, isoWeekRange, startOfLocalDay } from '@videomote/contract/meeting-rules';
import { useUser } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { listDayMeetings } from '../api/list-day-meetings.ts';
import { listWeekMeetings } from '../api/list-week-meetings.ts';
import { getMeetingWeeks } from '../api/get-meeting-weeks.ts';
import { deleteMeeting } from '../api/delete-meeting.ts';
import { MeetingCard } from '../components/meeting-card.tsx';
import { WeekPicker } from '../components/week-picker.tsx';
import { DeleteDialog } from '../components/delete-dialog.tsx';
import { useNow } from '../components/use-now.ts';
import '../meetings.css';

/** A list of meeting cards; `loading` while `meetings` is null, `empty` when there are none. */
function MeetingList(props: { meetings: Meeting[] | null; loading: string; empty: string; now: Date; onDelete(meeting: Meeting): void; onChanged(): void }) {
  if (props.meetings === null) return <LoadingSpinner label={props.loading} />;
  if (!props.meetings.length) return <p className="vm-empty">{props.empty}</p>;
  return (
    <ul className="vm-list">
      {props.meetings.map((m) => (
        <MeetingCard key={m.id} meeting={m} now={props.now} onDelete={props.onDelete} onChanged={props.onChanged} />
      ))}
    </ul>
  );
}

/** Home (spec §2): welcome, today's meetings, upcoming meetings by ISO week. */
export function HomePage() {
  useDocumentTitle('Mina möten - Videomöte');
  const user = useUser();
  const navigate = useNavigate();
  const now = useNow(1000);
  const [today, setToday] = useState<Meeting[] | null>(null);
  const [weeks, setWeeks] = useState<MeetingWeek[]>([]);
  const [week, setWeek] = useState<MeetingWeek | null>(null);
  const [upcoming, setUpcoming] = useState<Meeting[] | null>(null);
  const [toDelete, setToDelete] = useState<Meeting | null>(null);
  const [deleting, setDeleting] = useState(false);

  const loadToday = useCallback(async () => {
    const start = startOfLocalDay(new Date());
    const list = await listDayMeetings(start, startOfLocalDay(new Date(), 1));
    setToday([...list].sort((a, b) => a.startTime.localeCompare(b.startTime)));
  }, []);

  useEffect(() => {
    void loadToday().catch(() => setToday([]));
    getMeetingWeeks().then(
      (list) => {
        setWeeks(list);
        setWeek((current) => current ?? list[0] ?? isoWeekOf(startOfLocalDay(new Date(), 1)));
      },
      () => {
        setWeeks([]);
        setWeek((current) => current ?? isoWeekOf(startOfLocalDay(new Date(), 1)));
      },
    );
  }, [loadToday]);

  const loadWeek = useCallback(async (w: MeetingWeek) => {
    const range = isoWeekRange(w.year, w.week);
    // Upcoming means from tomorrow on (spec §9), within the chosen week.
    const tomorrow = startOfLocalDay(new Date(), 1);
    const from = range.from > tomorrow ? range.from : tomorrow;
    setUpcoming(from < range.to ? await listWeekMeetings(from, range.to) : []);
  }, []);

  useEffect(() => {
    if (!week) return;
    setUpcoming(null); // a new week: show loading rather than the old week's cards
    void loadWeek(week).catch(() => setUpcoming([]));
  }, [week, loadWeek]);

  // After a participant-count update the lists are read again (spec §4: the update goes to /meetings).
  const reload = useCallback(() => {
    void loadToday().catch(() => setToday([]));
    if (week) void loadWeek(week).catch(() => setUpcoming([]));
  }, [loadToday, loadWeek, week]);

  async function confirmDelete() {
    if (!toDelete?.id) return;
    setDeleting(true);
    try {
      await deleteMeeting(toDelete.id);
      navigate('/meetings/deleted');
    } finally {
      setDeleting(false);
    }
  }

  const name = `${user.ciamGivenName} ${user.ciamFamilyName}`.trim();
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
        <MeetingList meetings={today} loading="Hämtar dagens möten..." empty="Du har inga möten inbokade idag" now={now} onDelete={setToDelete} onChanged={reload} />
      </section>

      <section className="vm-section" aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">Kommande möten</h2>
        <WeekPicker weeks={weeks} selected={week} onSelect={setWeek} />
        <MeetingList meetings={upcoming} loading="Hämtar kommande möten..." empty="Du har inga fler möten" now={now} onDelete={setToDelete} onChanged={reload} />
      </section>

      {toDelete && (
        <DeleteDialog
          title="Ta bort mötet"
          text={`Vill du ta bort mötet "${toDelete.title}"? Deltagarna får inget meddelande om att mötet är borttaget.`}
          busy={deleting}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
