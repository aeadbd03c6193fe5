import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { LatestRequest } from './latest-request.ts';

export interface Query<T> {
  /** The newest answer; undefined until the first arrives and while a new key loads (never an older key's); a reload keeps it until the new one. */
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  /** Asks again for the same key (after a change, or the reset action of an error). */
  reload(): void;
}

/**
 * Fetches when `key` changes (compared as JSON; null means: nothing to fetch) and keeps only the newest answer
 * (LatestRequest): an answer that arrives after a newer request is dropped and the older request aborted.
 */
export function useQuery<T>(key: readonly unknown[] | null, fetcher: (signal: AbortSignal) => Promise<T>): Query<T> {
  const [state, setState] = useState<{ data: T | undefined; error: Error | null; loading: boolean }>({ data: undefined, error: null, loading: key !== null });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(new LatestRequest());
  const shownKey = useRef<string | null>(null);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const keyText = key === null ? null : JSON.stringify(key);

  useEffect(() => {
    const requests = latest.current;
    if (keyText === null) {
      shownKey.current = null;
      requests.cancel();
      setState({ data: undefined, error: null, loading: false });
      return;
    }
    const request = requests.start();
    // Asked again for the same key (reload): the answer on screen stays until the new one replaces it, so an open
    // card stays open; a new key never shows the old key's answer.
    const again = shownKey.current === keyText;
    shownKey.current = keyText;
    setState((s) => ({ data: again ? s.data : undefined, error: null, loading: true }));
    // The answer is rendered as a transition: a long list (the week's meetings) is rendered in slices, with input
    // let in between, not as one long task (Lighthouse's Total Blocking Time on a phone).
    fetcherRef.current(request.signal).then(
      (data) => request.isCurrent() && startTransition(() => setState({ data, error: null, loading: false })),
      (error: unknown) => request.isCurrent() && setState({ data: undefined, error: error instanceof Error ? error : new Error(String(error)), loading: false }),
    );
    return () => requests.cancel();
  }, [keyText, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
