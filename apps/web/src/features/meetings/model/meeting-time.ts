import { ABOUT_TO_START_MINUTES } from '@videomote/contract/meetings';
import { localDate, localParts, localTime } from '@videomote/contract/meeting-rules';

export type MeetingTiming = 'active' | 'about-to-start' | 'today' | 'later' | 'ended';

const WEEKDAYS = ['måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag'];
export const TYPE_LABELS: Record<0 | 1, string> = { 0: 'Videomöte', 1: 'Informationsmöte' };

/** Whole minutes until the start, rounded up (spec §9: the minutes helper rounds up). */
export const minutesUntil = (start: Date, now: Date) => Math.ceil((start.getTime() - now.getTime()) / 60_000);

/** 'Today' means the start is today; 'about to start' within 15 minutes and above 0; 'active' while running (spec §4). */
export function timingOf(m: { startTime: string; endTime: string }, now: Date): MeetingTiming {
  const start = new Date(m.startTime);
  const end = new Date(m.endTime);
  if (now >= start && now < end) return 'active';
  if (now >= end) return 'ended';
  const minutes = minutesUntil(start, now);
  if (minutes > 0 && minutes <= ABOUT_TO_START_MINUTES) return 'about-to-start';
  return localDate(start) === localDate(now) ? 'today' : 'later';
}

/**
 * Meetings in the order they start. The API's times are ISO 8601 in UTC (toISOString), whose order as text is their
 * order in time. Not localeCompare: a page's first collation starts the browser's (14-21 ms of main thread on this
 * machine, several times that on a phone), a long task on /meetings.
 */
export const byStartTime = <M extends { startTime: string }>(list: readonly M[]): M[] =>
  [...list].sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));

export const isToday = (m: { startTime: string }, now: Date) => localDate(new Date(m.startTime)) === localDate(now);

/**
 * 'Gå in i meeting' (spec §2, §6): a participant enters a meeting of today, also one whose booked end has passed: a
 * conversation that runs over, or someone who dropped out, must be able to get back in.
 */
export const canEnter = (m: { startTime: string; participants: readonly { currentUser?: boolean }[] }, now: Date) =>
  isToday(m, now) && m.participants.some((p) => p.currentUser);

/** The card's time string (spec §4): countdown, running, or the range plus type, with weekday and date when not today. */
export function timeString(m: { startTime: string; endTime: string; type: 0 | 1 }, now: Date): string {
  const timing = timingOf(m, now);
  const start = new Date(m.startTime);
  if (timing === 'active') return 'Mötet pågår';
  if (timing === 'about-to-start') {
    const n = minutesUntil(start, now);
    return `Mötet startar om ${n} ${n === 1 ? 'minut' : 'minuter'}`;
  }
  const range = `${localTime(start)}–${localTime(new Date(m.endTime))}`;
  const day = isToday(m, now) ? '' : `${WEEKDAYS[localParts(start).isoWeekday - 1]} ${localDate(start)}, `;
  return `${day}${range}, ${TYPE_LABELS[m.type]}`;
}
