import { useEffect, useRef, useState } from 'react';
import type { Employee } from '@videomote/contract/meetings';
import { ApiError } from '../../../lib/api-client.ts';
import { searchEmployees } from '../api/search-employees.ts';

const MIN_CHARS = 3;
const DEBOUNCE_MS = 300;
const AUTO_SELECT_BELOW = 4;
const SEARCH_FAILED = 'Sökningen gick inte att göra just nu. Försök igen om en stund.';

/**
 * Finds agency staff by agency id or name (spec §4): from 3 characters, 300 ms after the last keystroke; when fewer
 * than 4 come back, the first is selected at once.
 */
export function EmployeeSearch({
  inputId,
  selected,
  onSelect,
  error,
}: {
  inputId: string;
  selected: { afId: string; displayName: string } | null;
  onSelect(e: Employee): void;
  error?: string;
}) {
  const [query, setQuery] = useState(selected?.afId ?? '');
  const [results, setResults] = useState<Employee[] | null>(null);
  const [searching, setSearching] = useState(false);
  // Why the last search got no answer (the staff directory unreachable): the server's Swedish message, in place.
  const [failure, setFailure] = useState<string | null>(null);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;

  useEffect(() => {
    const q = query.trim();
    if (q.length < MIN_CHARS) {
      setResults(null);
      setFailure(null);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      setSearching(true);
      searchEmployees(q).then(
        (list) => {
          if (!live) return;
          setResults(list);
          setFailure(null);
          setSearching(false);
          if (list.length > 0 && list.length < AUTO_SELECT_BELOW) onSelectRef.current(list[0]!);
        },
        (err: unknown) => {
          if (!live) return;
          setResults(null);
          setFailure(err instanceof ApiError && err.message ? err.message : SEARCH_FAILED);
          setSearching(false);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [query]);

  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const statusId = `${inputId}-status`;
  const failureId = `${inputId}-failure`;
  return (
    <div className="vm-field">
      <label htmlFor={inputId}>Sök anställd</label>
      <span id={hintId} className="vm-field__hint">
        Skriv minst tre tecken av signatur eller namn
      </span>
      <input
        id={inputId}
        type="search"
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : '', failure ? failureId : '', statusId].filter(Boolean).join(' ')}
      />
      {error && (
        <span id={errorId} className="vm-field__error">
          {error}
        </span>
      )}
      <span id={statusId} className="visually-hidden" aria-live="polite">
        {searching ? 'Söker...' : results ? `${results.length} träffar` : ''}
      </span>
      {failure && (
        <span id={failureId} className="vm-field__error" role="alert">
          {failure}
        </span>
      )}
      {results && results.length === 0 && <span>Inga träffar</span>}
      {results && results.length > 0 && (
        <ul className="vm-results" aria-label="Sökresultat">
          {results.map((e) => (
            <li key={e.signatur}>
              <button type="button" aria-pressed={selected?.afId === e.signatur} onClick={() => onSelect(e)}>
                {e.namn} ({e.signatur})
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected?.afId && selected.displayName && (
        <span>
          Vald: {selected.displayName} ({selected.afId})
        </span>
      )}
    </div>
  );
}
