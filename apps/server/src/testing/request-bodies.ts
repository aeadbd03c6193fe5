/**
 * Valid request bodies the API tests send when the body itself is not what they test. The times fall on the test
 * clocks' Friday, 2026-11-20 (Stockholm winter time).
 */

/** POST/PUT `/api/message`: a Warn message for that whole working day, shown to every audience unless overridden. */
export const systemMessageBody = (overrides: Record<string, unknown> = {}) => ({
  type: 1,
  value: 'Planerat underhåll',
  startTime: '2026-11-20T08:00:00+01:00',
  endTime: '2026-11-20T18:00:00+01:00',
  showExternal: true,
  showInternal: true,
  showKauser: true,
  ...overrides,
});

/** POST `/api/meeting`: a conversation meeting that day, booked and administered by the caller alone. */
export const ownMeetingBody = (title: string, startTime: string, endTime: string) => ({
  title,
  type: 0,
  startTime,
  endTime,
  participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }],
});
