import { forwardRef } from 'react';
import type { ErrorItem } from '@videomote/contract/errors';
import { MEETING_MESSAGES } from '@videomote/contract/meeting-rules';
import { DATE_FORMAT_MESSAGE, TIME_FORMAT_MESSAGE } from '../../../components/ui/date-time-text.ts';

/** What the list names for a field (spec §5: Rubrik, Datum, Starttid, Sluttid, name or initials, personal number). */
function labelFor(item: ErrorItem): string {
  const field = item.fields[0] ?? '';
  const named: Record<string, string> = { title: 'Rubrik', date: 'Datum', startTime: 'Starttid', endTime: 'Sluttid' };
  const required = [MEETING_MESSAGES.titleRequired, MEETING_MESSAGES.dateRequired, MEETING_MESSAGES.startRequired, MEETING_MESSAGES.endRequired] as string[];
  if (named[field] && required.includes(item.message)) return named[field];
  // 'Ange tid som tt:mm' alone would not say which of the two times it is about.
  if (named[field] && (item.message === DATE_FORMAT_MESSAGE || item.message === TIME_FORMAT_MESSAGE)) return `${named[field]}: ${item.message}`;
  const m = /^participant-(\d+)-(\w+)$/.exec(field);
  if (m) {
    const n = Number(m[1]) + 1;
    if (m[2] === 'displayName') return `Deltagare ${n}: namn eller initialer`;
    if (m[2] === 'pin') {
      if (item.message === MEETING_MESSAGES.pinRequired) return `Deltagare ${n}: personnummer`;
      return item.message === MEETING_MESSAGES.fieldInvalid ? `Deltagare ${n}: Felaktigt personnummer` : `Deltagare ${n}: ${item.message}`;
    }
    if (m[2] === 'afId') return `Deltagare ${n}: anställd (signatur eller namn)`;
    return `Deltagare ${n}: ${item.message}`;
  }
  return item.message;
}

/** Focus moves here after a failed save; each item links to (and focuses) its field (spec §2, §8). */
export const ErrorSummary = forwardRef<HTMLDivElement, { errors: ErrorItem[] }>(function ErrorSummary({ errors }, ref) {
  const focusField = (event: React.MouseEvent, id: string) => {
    event.preventDefault();
    // A field of a closed participant card is not on the page: go to its card instead.
    const card = /^(participant-\d+)-/.exec(id)?.[1];
    const target = document.getElementById(id) ?? (card ? document.getElementById(card) : null);
    if (!target) return;
    target.focus();
    if (document.activeElement !== target) {
      console.warn(`Fältet ${id} kan inte ta fokus`);
      target.scrollIntoView({ block: 'center' });
    }
  };
  return (
    <div ref={ref} className="vm-error-summary" tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{MEETING_MESSAGES.errorSummaryHeading}</h2>
      <ul>
        {errors.map((e, i) => (
          <li key={`${e.fields.join(',')}-${i}`}>
            <a href={`#${e.fields[0] ?? ''}`} onClick={(ev) => focusField(ev, e.fields[0] ?? '')}>
              {labelFor(e)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
});
