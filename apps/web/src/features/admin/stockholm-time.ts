import { fromLocal, localDate, localTime } from '@videomote/contract/meeting-rules';

/**
 * Dates and times as the spec shows them (yyyy-MM-dd, HH:mm) in Europe/Stockholm, whatever the browser's zone:
 * the admin pages' ISO strings in and out of the contract's one set of Swedish time rules.
 */

/** `{ date: 'yyyy-MM-dd', time: 'HH:mm' }` of an instant in Swedish time. */
export function splitStockholm(iso: string): { date: string; time: string } {
  const instant = new Date(iso);
  return { date: localDate(instant), time: localTime(instant) };
}

export const formatStockholm = (iso: string) => {
  const { date, time } = splitStockholm(iso);
  return `${date} ${time}`;
};

/** The instant (ISO, UTC) of a Swedish wall-clock date and time; null when either is missing or invalid. */
export const joinStockholm = (date: string, time: string): string | null => fromLocal(date, time)?.toISOString() ?? null;

/** Today's date in Sweden, yyyy-MM-dd. */
export const todayStockholm = (now = new Date()) => localDate(now);
