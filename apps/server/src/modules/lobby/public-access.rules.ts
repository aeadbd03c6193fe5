import type { PublicAccessField } from '@videomote/contract/public-access';

const stockholmDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });

/** yyyy-MM-dd in Europe/Stockholm: "today" in the spec is the Swedish calendar day, not UTC's. */
export const swedishDate = (d: Date): string => stockholmDay.format(d);

/**
 * Whether an anonymous visitor may enter a webcast now. It opens on the day it starts (spec §4: "today" means the
 * start is today) and closes when it ends. A webcast that started on an earlier day and still runs stays open.
 */
export function publicAccessRefusal(meeting: { startTime: Date; endTime: Date }, now: Date): Exclude<PublicAccessField, 'roomId'> | null {
  if (now.getTime() >= meeting.endTime.getTime()) return 'endTime';
  if (swedishDate(meeting.startTime) > swedishDate(now)) return 'startTime';
  return null;
}
