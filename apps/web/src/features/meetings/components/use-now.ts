import { useEffect, useState } from 'react';

/** The current time, re-read every `ms` (the card's time string refreshes every second, spec §4). */
export function useNow(ms = 1000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}
