import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import type { Meeting } from '@videomote/contract/meetings';
import { ROLE_LABELS, type ParticipantRole } from '@videomote/contract/participant-roles';
import { localDate, localTime } from '@videomote/contract/meeting-rules';
import { calendarUrl } from '../api/get-invitations.ts';
import { canEnter, timeString, timingOf, TYPE_LABELS } from '../model/meeting-time.ts';
import { MeetingLinks } from './meeting-links.tsx';
import { CountInfoParticipants } from './count-info-participants.tsx';
import { useQuery } from '../../../lib/use-query.ts';
import { getConnectionChecks } from '../api/get-connection-checks.ts';
import { connectionCheckNote, needsAttention } from '../model/connection-check-note.ts';
import { useNow } from './use-now.ts';

const roleLabel = (role: string) => ROLE_LABELS[role as ParticipantRole] ?? role;

/** Participants by name and role; for the meeting's staff also each one's last lobby connection check. */
function PeopleList({ people, checks, now }: { people: Meeting['participants']; checks?: Map<string, ParticipantConnectionCheck>; now: Date }) {
  return (
    <ul className="vm-people">
      {people.map((p) => {
        const check = p.id ? checks?.get(p.id) : undefined;
        return (
          <li key={p.id}>
            {p.displayName} ({roleLabel(p.role)}
            {p.selfRegistered ? ', självregistrerad' : ''})
            {check && (
              <span className={`vm-people__check${needsAttention(check) ? ' vm-people__check--attention' : ''}`} data-check-result={check.result}>
                {connectionCheckNote(check, now)}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The participants' lobby connection checks, fetched when a staff participant opens the card (the server answers
 * only them): who needed TURN or could not get media through, before the meeting starts.
 */
function useConnectionChecks(meeting: Meeting, open: boolean): Map<string, ParticipantConnectionCheck> | undefined {
  const staff = meeting.participants.some((p) => p.currentUser && p.afId);
  const query = useQuery(open && staff && meeting.id ? ['connection-checks', meeting.id] : null, (signal) => getConnectionChecks(meeting.id!, signal));
  return query.data ? new Map(query.data.map((c) => [c.participantId, c])) : undefined;
}

/** A collapsible meeting panel (spec §2 meeting card); its time string follows the clock second by second. */
export function MeetingCard({ meeting, onDelete, onChanged }: { meeting: Meeting; onDelete(meeting: Meeting): void; onChanged(): void }) {
  const now = useNow();
  const [open, setOpen] = useState(false);
  const [linksOpen, setLinksOpen] = useState(false);
  const bodyId = useId();
  const timing = timingOf(meeting, now);
  const highlighted = timing === 'active' || timing === 'about-to-start';
  const checks = useConnectionChecks(meeting, open);
  const admins = meeting.participants.filter((p) => p.isAdmin);
  const others = meeting.participants.filter((p) => !p.isAdmin);
  return (
    <li className={`vm-card${highlighted ? ' vm-card--highlight' : ''}`} aria-label={meeting.title}>
      <div className="vm-card__header">
        <button type="button" className="vm-card__toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <span className="vm-card__title">{meeting.title}</span>
          <span className="vm-card__time">{timeString(meeting, now)}</span>
        </button>
        {canEnter(meeting, now) && (
          <Link className="vm-button" to={`/meetings/${meeting.id}/lobby`}>
            Gå in i meeting
          </Link>
        )}
      </div>
      <div id={bodyId} className="vm-card__body" hidden={!open}>
        {meeting.currentUserIsAdmin && (
          <div className="vm-row vm-card__actions">
            <Link className="vm-button vm-button--secondary" to={`/meetings/${meeting.id}/edit`} aria-label={`Ändra ${meeting.title}`}>
              Ändra
            </Link>
            <Link className="vm-button vm-button--secondary" to={`/meetings/${meeting.id}/copy`} aria-label={`Kopiera ${meeting.title}`}>
              Kopiera
            </Link>
            <button type="button" className="vm-button vm-button--secondary" onClick={() => onDelete(meeting)} aria-label={`Ta bort ${meeting.title}`}>
              Ta bort
            </button>
            <a className="vm-button vm-button--secondary" href={calendarUrl(meeting.id!)} download={`videomote-${meeting.id}.ics`}>
              Lägg till i kalender
            </a>
          </div>
        )}
        <details className="vm-details">
          <summary>Mötesinfo</summary>
          <dl>
            <dt>Typ</dt>
            <dd>{TYPE_LABELS[meeting.type]}</dd>
            <dt>Datum</dt>
            <dd>{localDate(new Date(meeting.startTime))}</dd>
            <dt>Tid</dt>
            <dd>
              {localTime(new Date(meeting.startTime))}–{localTime(new Date(meeting.endTime))}
            </dd>
          </dl>
        </details>
        <h3>Administratörer ({admins.length})</h3>
        <PeopleList people={admins} checks={checks} now={now} />
        <h3>Deltagare ({others.length})</h3>
        {others.length ? (
          <PeopleList people={others} checks={checks} now={now} />
        ) : (
          <p className="vm-empty">Inga fler deltagare</p>
        )}
        {meeting.currentUserIsAdmin && meeting.type === 1 && (
          <CountInfoParticipants meetingId={meeting.id!} value={meeting.countInfoParticipants} onSaved={onChanged} />
        )}
        {meeting.currentUserIsAdmin && (
          <details className="vm-details" onToggle={(e) => setLinksOpen(e.currentTarget.open)}>
            <summary>Möteslänkar</summary>
            {linksOpen && <MeetingLinks meetingId={meeting.id!} />}
          </details>
        )}
      </div>
    </li>
  );
}
