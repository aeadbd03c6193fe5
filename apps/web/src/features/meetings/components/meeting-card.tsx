import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Meeting } from '@videomote/contract/meetings';
import { ROLE_LABELS, type ParticipantRole } from '@videomote/contract/participant-roles';
import { localDate, localTime } from '@videomote/contract/meeting-rules';
import { calendarUrl } from '../api/get-invitations.ts';
import { canEnter, timeString, timingOf, TYPE_LABELS } from '../model/meeting-time.ts';
import { MeetingLinks } from './meeting-links.tsx';
import { CountInfoParticipants } from './count-info-participants.tsx';

const roleLabel = (role: string) => ROLE_LABELS[role as ParticipantRole] ?? role;

/** Participants by name and role. */
function PeopleList({ people }: { people: Meeting['participants'] }) {
  return (
    <ul className="vm-people">
      {people.map((p) => (
        <li key={p.id}>
          {p.displayName} ({roleLabel(p.role)}
          {p.selfRegistered ? ', självregistrerad' : ''})
        </li>
      ))}
    </ul>
  );
}

/** A collapsible meeting panel (spec §2 meeting card). `now` ticks every second from the page. */
export function MeetingCard({ meeting, now, onDelete, onChanged }: { meeting: Meeting; now: Date; onDelete(meeting: Meeting): void; onChanged(): void }) {
  const [open, setOpen] = useState(false);
  const [linksOpen, setLinksOpen] = useState(false);
  const bodyId = useId();
  const timing = timingOf(meeting, now);
  const highlighted = timing === 'active' || timing === 'about-to-start';
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
        <PeopleList people={admins} />
        <h3>Deltagare ({others.length})</h3>
        {others.length ? (
          <PeopleList people={others} />
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
