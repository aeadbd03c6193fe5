import type { MeetingWeek } from '@videomote/contract/meetings';

const keyOf = (w: MeetingWeek) => `${w.year}-${w.week}`;

/** Previous/next and a dropdown 'Vecka {n}, {year}'; the buttons are hidden at the ends (spec §2). */
export function WeekPicker({ weeks, selected, onSelect }: { weeks: MeetingWeek[]; selected: MeetingWeek | null; onSelect(w: MeetingWeek): void }) {
  if (!selected || !weeks.length) return null;
  const index = weeks.findIndex((w) => keyOf(w) === keyOf(selected));
  const prev = index > 0 ? weeks[index - 1] : null;
  const next = index >= 0 && index < weeks.length - 1 ? weeks[index + 1] : null;
  return (
    <div className="vm-week-picker">
      {prev && (
        <button type="button" className="vm-button vm-button--secondary" onClick={() => onSelect(prev)} aria-label={`Föregående vecka, vecka ${prev.week}`}>
          ‹ Föregående
        </button>
      )}
      <label htmlFor="week-select" className="visually-hidden">
        Välj vecka
      </label>
      <select id="week-select" value={keyOf(selected)} onChange={(e) => onSelect(weeks.find((w) => keyOf(w) === e.target.value)!)}>
        {weeks.map((w) => (
          <option key={keyOf(w)} value={keyOf(w)}>
            Vecka {w.week}, {w.year}
          </option>
        ))}
      </select>
      {next && (
        <button type="button" className="vm-button vm-button--secondary" onClick={() => onSelect(next)} aria-label={`Nästa vecka, vecka ${next.week}`}>
          Nästa ›
        </button>
      )}
    </div>
  );
}
