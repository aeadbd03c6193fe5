import { useMemo, useSyncExternalStore } from 'react';

/**
 * One clock for the page, ticking every second: the cards' time strings refresh every second (spec §4). Each card
 * reads it itself, so a tick re-renders the cards and not the page around them (the week picker, the headings); one
 * timer for all, so they re-render together in one pass. The snapshot is the whole second, so it is always current
 * and equal between two reads within the same second, as useSyncExternalStore needs.
 */
const listeners = new Set<() => void>();
let timer: number | undefined;

function subscribe(onTick: () => void): () => void {
  listeners.add(onTick);
  timer ??= window.setInterval(() => listeners.forEach((l) => l()), 1000);
  return () => {
    listeners.delete(onTick);
    if (!listeners.size) {
      window.clearInterval(timer);
      timer = undefined;
    }
  };
}

const currentSecond = () => Math.floor(Date.now() / 1000);

/** The current time, to the second. */
export function useNow(): Date {
  const second = useSyncExternalStore(subscribe, currentSecond);
  return useMemo(() => new Date(second * 1000), [second]);
}
