/** Calendar arithmetic for statistics: days in Europe/Stockholm, weeks as ISO weeks (booking spec §9). */

const stockholmDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Swedish calendar day (yyyy-MM-dd) an instant falls on. */
export const dayOf = (instant: Date): string => stockholmDay.format(instant);

const utcDate = (day: string) => new Date(`${day}T00:00:00Z`);
const fmt = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(day: string, n: number): string {
  const d = utcDate(day);
  d.setUTCDate(d.getUTCDate() + n);
  return fmt(d);
}

export const daysBetween = (from: string, to: string) => Math.round((utcDate(to).getTime() - utcDate(from).getTime()) / 86_400_000);

/** ISO week label `yyyy-Www` of a day: weeks start on Monday, week 1 holds the year's first Thursday. */
export function isoWeekOf(day: string): string {
  const d = utcDate(day);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  d.setUTCDate(d.getUTCDate() - weekday + 3); // the Thursday of this week decides the year
  const year = d.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((d.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export const isValidDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && fmt(utcDate(day)) === day;
