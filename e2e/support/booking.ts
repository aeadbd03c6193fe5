import type { Page } from 'playwright-core';
import { luhnOk } from '@videomote/contract/personnummer';
import { localDate, startOfLocalDay } from '@videomote/contract/meeting-rules';
import { apiCall } from './call.ts';

/** Tomorrow in Stockholm, yyyy-MM-dd: a booking then lies ahead whatever the hour the test runs at. */
export const tomorrow = () => localDate(startOfLocalDay(new Date(), 1));

/** A valid personnummer for an interpreter in the booking tests (the check digit found, not hard-coded). */
export const TOLK_PIN = (() => {
  for (let d = 0; d < 10; d++) if (luhnOk(`800505123${d}`)) return `19800505-123${d}`;
  throw new Error('unreachable');
})();

/** Booking participants as the API takes them: the booker as staff and the meeting's administrator. */
export const BOOKER_AS_OFFICER = { currentUser: true, role: 'EmploymentOfficer', isAdmin: true } as const;
/** The booker presenting a webcast. */
export const BOOKER_AS_PRESENTER = { currentUser: true, role: 'PresenterInternal', isAdmin: true } as const;
/** Jonna (persona `jonna`) added by personnummer, as the booking form adds a job seeker. */
export const JONNA_BY_PIN = { role: 'JobSeeker', displayName: 'Jonna Sökande', pin: '19900101-2385' } as const;
/** Karin (persona `karin`) added by personnummer as an external participant. */
export const KARIN_BY_PIN = { role: 'ExternalParticipant', displayName: 'Karin Kompletterande', pin: '19850709-9805' } as const;
/** Karin (a KA user) as the agency's contractor in a conversation meeting. */
export const KARIN_AS_CONTRACTOR = { role: 'PrivateContractor', displayName: 'Karin Kompletterande', pin: '19850709-9805' } as const;

/**
 * Books a meeting through the meetings API as the page's user, tomorrow 09:00-10:00 UTC (in the future and inside
 * one Swedish day whenever the suite runs: bookings cannot cross midnight); answers its id.
 */
export async function bookTomorrow(page: Page, meeting: { title: string; type: 0 | 1; participants: readonly object[] }): Promise<string> {
  const start = new Date(Date.now() + 24 * 60 * 60_000);
  start.setUTCHours(9, 0, 0, 0);
  const end = new Date(start.getTime() + 60 * 60_000);
  const res = await apiCall(page, 'POST', '/api/meeting', { ...meeting, startTime: start.toISOString(), endTime: end.toISOString() });
  if (res.status !== 200) throw new Error(`booking failed: ${res.status} ${res.body}`);
  return JSON.parse(res.body).data.id as string;
}
