import { STATS_ERRORS, type StatsGrouping, type StatsResponse, type StatsRow } from '@videomote/contract/stats';
import type { Db, Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { findMeeting, listMeetingsEndedBetween, listMembers, type MeetingSummary } from '../meetings/meeting-membership.ts';
import * as repo from './stats.repository.ts';
import { addDays, dayOf, daysBetween, isoWeekOf, isValidDay } from './stats-dates.ts';
import type { DayFigures } from './stats.repository.ts';

/**
 * Counts a held meeting once in the anonymous daily aggregates (on the Swedish day it started). Safe to call
 * more than once and from anywhere — the sweep below, the retention job's hook, the meetings module — because
 * the meeting id is remembered. Call it inside the caller's transaction when there is one.
 */
export async function recordMeetingHeld(db: Queryable, meeting: MeetingSummary, participantCount: number): Promise<boolean> {
  const day = dayOf(meeting.startTime);
  if (!(await repo.markMeetingRecorded(db, meeting.id, day))) return false;
  const webcast = meeting.type === 1;
  await repo.addMeetingToDay(db, day, {
    meetings: webcast ? 0 : 1,
    webcasts: webcast ? 1 : 0,
    participants: participantCount,
    webcastAudience: webcast ? meeting.countInfoParticipants : 0,
  });
  return true;
}

/** For the retention job: count these meetings before their rows are deleted (runs in its transaction). */
export async function recordMeetingsBeforePurge(tx: Queryable, meetingIds: string[]): Promise<void> {
  const already = await repo.recordedMeetingIds(tx, meetingIds);
  for (const id of meetingIds) {
    if (already.has(id)) continue;
    const meeting = await findMeeting(tx, id);
    if (meeting) await recordMeetingHeld(tx, meeting, (await listMembers(tx, id)).length);
  }
}

// Meetings are counted when they have ended; the look-back covers a server that was down for a while.
const SWEEP_LOOKBACK_MS = 8 * 86_400_000;

/** Counts every meeting that ended recently and is not counted yet. Returns how many were added. */
export async function recordEndedMeetings(db: Db, now: Date): Promise<number> {
  const ended = await listMeetingsEndedBetween(db, new Date(now.getTime() - SWEEP_LOOKBACK_MS), new Date(now.getTime() + 1));
  const already = await repo.recordedMeetingIds(db, ended.map((e) => e.meeting.id));
  let added = 0;
  for (const e of ended) {
    if (already.has(e.meeting.id)) continue;
    if (await db.transaction((tx) => recordMeetingHeld(tx, e.meeting, e.participantCount))) added++;
  }
  return added;
}

export async function recordRating(db: Queryable, at: Date, quality: 1 | 2 | 3 | 4 | 5): Promise<void> {
  await repo.addRatingToDay(db, dayOf(at), quality);
}

function toRow(period: string, f: DayFigures): StatsRow {
  const ratings = f.ratingCounts.reduce((a, b) => a + b, 0);
  const sum = f.ratingCounts.reduce((a, n, i) => a + n * (i + 1), 0);
  return {
    period,
    meetings: f.meetings,
    webcasts: f.webcasts,
    participants: f.participants,
    webcastAudience: f.webcastAudience,
    ratings,
    averageRating: ratings ? Math.round((sum / ratings) * 100) / 100 : null,
    ratingCounts: [...f.ratingCounts],
  };
}

function add(into: DayFigures, f: DayFigures): void {
  into.meetings += f.meetings;
  into.webcasts += f.webcasts;
  into.participants += f.participants;
  into.webcastAudience += f.webcastAudience;
  f.ratingCounts.forEach((n, i) => (into.ratingCounts[i] = (into.ratingCounts[i] ?? 0) + n));
}

export const MAX_RANGE_DAYS = 366;

/** Every day (or ISO week) of the range, empty periods included so charts keep their time axis. */
export async function statsReport(db: Queryable, now: Date, q: { from?: string; to?: string; group?: StatsGrouping }): Promise<StatsResponse> {
  const to = q.to ?? dayOf(now);
  const from = q.from ?? addDays(to, -29);
  const group = q.group ?? 'day';
  if (!isValidDay(from) || !isValidDay(to) || daysBetween(from, to) < 0) throw validationError([{ fields: ['from', 'to'], message: STATS_ERRORS.range }]);
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) throw validationError([{ fields: ['from', 'to'], message: STATS_ERRORS.tooLong }]);
  const days = await repo.readDays(db, from, to);
  const periods = new Map<string, DayFigures>();
  const totals = repo.emptyFigures();
  for (let day = from; daysBetween(day, to) >= 0; day = addDays(day, 1)) {
    const key = group === 'week' ? isoWeekOf(day) : day;
    if (!periods.has(key)) periods.set(key, repo.emptyFigures());
    const f = days.get(day);
    if (f) {
      add(periods.get(key)!, f);
      add(totals, f);
    }
  }
  return { from, to, group, rows: [...periods].map(([p, f]) => toRow(p, f)), totals: toRow('Totalt', totals) };
}

const CSV_HEADER = ['Period', 'Möten', 'Webbsändningar', 'Deltagare', 'Publik i webbsändningar', 'Antal betyg', 'Medelbetyg', '1', '2', '3', '4', '5'];

/** Semicolon-separated with decimal comma and a BOM: what Swedish spreadsheet programs open as columns. */
export function statsCsv(report: StatsResponse): string {
  const line = (r: StatsRow) =>
    [r.period, r.meetings, r.webcasts, r.participants, r.webcastAudience, r.ratings, r.averageRating === null ? '' : String(r.averageRating).replace('.', ','), ...r.ratingCounts].join(';');
  return '\uFEFF' + [CSV_HEADER.join(';'), ...report.rows.map(line), line(report.totals)].join('\r\n') + '\r\n';
}
