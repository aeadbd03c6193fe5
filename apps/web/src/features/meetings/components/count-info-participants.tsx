import { useId, useState, type FormEvent } from 'react';
import { updateCountInfoParticipants } from '../api/update-count-info-participants.ts';

/** An information meeting's expected audience, set by its admins (spec §7 participant-count update). */
export function CountInfoParticipants({ meetingId, value, onSaved }: { meetingId: string; value: number; onSaved(): void }) {
  const id = useId();
  const [count, setCount] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const n = Number(count);
    if (!/^\d{1,6}$/.test(count.trim()) || !Number.isInteger(n)) {
      setError('Fältet är ej korrekt ifyllt');
      return;
    }
    setError(null);
    await updateCountInfoParticipants(meetingId, n);
    onSaved();
  }
  return (
    <form onSubmit={submit} className="vm-row" noValidate>
      <div className="vm-field">
        <label htmlFor={id}>Antal deltagare i informationsmötet</label>
        <input
          id={id}
          inputMode="numeric"
          value={count}
          onChange={(e) => setCount(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <span id={`${id}-error`} className="vm-field__error">
            {error}
          </span>
        )}
      </div>
      <button type="submit" className="vm-button vm-button--secondary">
        Spara antal
      </button>
    </form>
  );
}
