import { describe, expect, it } from 'vitest';
import type { Meeting, Participant } from '@videomote/contract/meetings';
import { AudienceCodes } from '@videomote/contract/meetings';
import { audienceFor, calendarFor, foldLine, icsText, invitationsFor, languagesLine } from './invitations.ts';

const person = (role: string, extra: Partial<Participant> = {}): Participant => ({
  id: `p-${role}`,
  role,
  displayName: role,
  pin: null,
  afId: null,
  email: null,
  currentUser: false,
  isParticipant: true,
  isAdmin: false,
  meetingId: 'm1',
  selfRegistered: false,
  ...extra,
});

const meeting = (type: 0 | 1, participants: Participant[]): Meeting => ({
  id: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
  title: 'Informationsträff',
  type,
  startTime: '2026-11-24T09:00:00.000Z',
  endTime: '2026-11-24T10:00:00.000Z',
  created: null,
  roomId: 'AbCdEfGhIjKlMnOpQrStUvWx',
  version: 3,
  participants,
  selfRegistrations: 0,
  countInfoParticipants: 0,
  createdBy: null,
  currentUserIsAdmin: true,
  signupEnabled: true,
});

const CODE = 'q1w2e3r4t5y6u7i8o9p0aZ';

describe('invitations by audience code', () => {
  it('maps every role of both meeting types to a code', () => {
    expect(audienceFor({ type: 0 }, { role: 'EmploymentOfficer' })).toBe('ID');
    expect(audienceFor({ type: 0 }, { role: 'JobSeeker' })).toBe('SD');
    expect(audienceFor({ type: 0 }, { role: 'Interpreter' })).toBe('SD');
    expect(audienceFor({ type: 0 }, { role: 'PrivateContractor' })).toBe('LevD');
    expect(audienceFor({ type: 1 }, { role: 'PresenterInternal' })).toBe('IPAF');
    expect(audienceFor({ type: 1 }, { role: 'PresenterExternal' })).toBe('IPE');
    expect(audienceFor({ type: 0 }, { role: 'None' })).toBe('NotDefined');
    // The text interpreter logs in with e-ID through the lobby in either meeting type.
    expect(audienceFor({ type: 0 }, { role: 'TextInterpreter' })).toBe('SD');
    expect(audienceFor({ type: 1 }, { role: 'TextInterpreter' })).toBe('SD');
  });

  it('writes a Swedish mail with the right link for each of the eight codes', () => {
    const base = 'https://videomote.example.se';
    const contractorMeeting = meeting(0, [
      person('PrivateContractor', { currentUser: true, isAdmin: true }),
      person('EmploymentOfficer', { email: 'a@b.se' }),
      person('JobSeeker'),
      person('PrivateContractor', { id: 'p-lev2' }),
    ]);
    const webcast = meeting(1, [person('PresenterInternal', { currentUser: true, isAdmin: true }), person('PresenterInternal', { id: 'p-2' }), person('PresenterExternal')]);
    const all = [...invitationsFor(contractorMeeting, base, CODE).invitations, ...invitationsFor(webcast, base, CODE).invitations];
    expect(new Set(all.map((i) => i.audience))).toEqual(new Set(AudienceCodes));
    const lobby = `${base}/meetings/${contractorMeeting.id}/lobby`;
    const signup = `${base}/meetings/${contractorMeeting.id}/signup?code=${CODE}`;
    const byCode = Object.fromEntries(all.map((i) => [i.audience, i]));
    expect(byCode.ID!.body).toContain(lobby);
    expect(byCode.ID!.to).toBe('a@b.se');
    expect(byCode.ID!.mailto.startsWith('mailto:a%40b.se?subject=')).toBe(true);
    expect(byCode.SD!.body).toContain('e-legitimation');
    expect(byCode.LevR!.body).toContain(signup);
    expect(byCode.IPE!.body).toContain(signup);
    expect(byCode.IPREG!.body).toContain(`${base}/publicaccess/AbCdEfGhIjKlMnOpQrStUvWx`);
    expect(byCode.IPAF!.subject).toBe('Inbjudan till informationsmöte: Informationsträff');
    for (const i of all) {
      expect(i.body).toContain('Datum: 2026-11-24');
      expect(i.body).toContain('Tid: 10:00–11:00');
      expect(decodeURIComponent(i.mailto.split('&body=')[1]!)).toBe(i.body);
    }
    expect(invitationsFor(contractorMeeting, base, CODE).links.map((l) => l.url)).toEqual([lobby, signup]);
  });

  it('has no sign-up link anywhere while sign-up is off: no LevR mail, and IPE gets the lobby link', () => {
    const base = 'https://videomote.example.se';
    const contractorMeeting = meeting(0, [person('PrivateContractor', { currentUser: true, isAdmin: true }), person('JobSeeker')]);
    const webcast = meeting(1, [person('PresenterInternal', { currentUser: true, isAdmin: true }), person('PresenterExternal')]);
    for (const m of [contractorMeeting, webcast]) {
      const { links, invitations } = invitationsFor({ ...m, signupEnabled: false }, base, null);
      expect(JSON.stringify({ links, invitations })).not.toContain('/signup');
      expect(invitations.map((i) => i.audience)).not.toContain('LevR');
    }
    const ipe = invitationsFor({ ...webcast, signupEnabled: false }, base, null).invitations.find((i) => i.audience === 'IPE')!;
    expect(ipe.body).toContain(`${base}/meetings/${webcast.id}/lobby`);
    expect(invitationsFor(webcast, base, null).links.map((l) => l.label)).toEqual(['Länk för presentatörer', 'Länk för deltagare (publik)']);
  });
});

describe('iCalendar text', () => {
  it('escapes TEXT values and folds long lines at 75 octets without splitting characters', () => {
    expect(icsText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
    const folded = foldLine(`SUMMARY:${'å'.repeat(60)}`);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(`SUMMARY:${'å'.repeat(60)}`);
  });
  it('writes VTIMEZONE, a stable UID, SEQUENCE = version and local times', () => {
    const ics = calendarFor(meeting(0, []), 'http://localhost:3000', new Date('2026-11-20T08:00:00Z'));
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Stockholm');
    expect(ics).toContain('UID:6f9619ff-8b86-4d11-b42d-00c04fc964ff@videomote');
    expect(ics).toContain('SEQUENCE:3');
    expect(ics).toContain('DTSTART;TZID=Europe/Stockholm:20261124T100000');
    expect(ics).toContain('DTSTAMP:20261120T080000Z');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
  it('strips control characters from user text: a lone CR, NUL, ESC, C1 controls cannot add properties', () => {
    expect(icsText('a\rb')).toBe('a\\nb');
    expect(icsText('a\r\nb\u2028c')).toBe('a\\nb\\nc');
    expect(icsText('x\u0000y\u001bz\u0085w\u007f')).toBe('xyzw');
    expect(icsText('tab\tkept')).toBe('tab\tkept');
    const hostile = { ...meeting(0, []), title: 'Möte\rATTENDEE:mailto:evil@example.com\nX-INJECTED:1\u0000' };
    const ics = calendarFor(hostile, 'http://localhost:3000', new Date('2026-11-20T08:00:00Z'));
    // Every physical line is a folded continuation or a property of ours; nothing the title brought.
    const lines = ics.replace(/\r\n /g, '').split('\r\n');
    expect(lines.filter((l) => /^(ATTENDEE|X-INJECTED)/.test(l))).toEqual([]);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n\u0000]/);
    expect(lines).toContain('SUMMARY:Möte ATTENDEE:mailto:evil@example.com X-INJECTED:1');
    // The invitation mails carry the title on one line too.
    for (const i of invitationsFor({ ...hostile, participants: [person('JobSeeker')] }, 'http://localhost:3000', null).invitations) {
      expect(i.subject).not.toMatch(/[\r\n\u0000]/);
      expect(i.body).toContain('Rubrik: Möte ATTENDEE:mailto:evil@example.com X-INJECTED:1\r\n');
    }
  });
});

describe('the languages line of external invitations', () => {
  const jobMeeting = meeting(0, [person('EmploymentOfficer', { currentUser: true, isAdmin: true }), person('EmploymentOfficer', { id: 'p-colleague' }), person('JobSeeker')]);
  const line = (invitation: { body: string }) => invitation.body.split('\r\n').filter((l) => l.startsWith('Väntrummet och mötets'));

  it('names each offered language in itself and in Swedish, in one line, to external people only', () => {
    const { invitations } = invitationsFor(jobMeeting, 'https://videomote.example.se', null, ['sv', 'en', 'ar', 'so', 'ti']);
    const jobSeeker = invitations.find((i) => i.audience === 'SD')!;
    expect(line(jobSeeker)).toEqual([
      'Väntrummet och mötets knappar och texter finns också på English (engelska), العربية (arabiska), Soomaali (somaliska) och ትግርኛ (tigrinja): välj språk högst upp på sidan.',
    ]);
    // A colleague reads Swedish: the staff invitation is as it was.
    expect(line(invitations.find((i) => i.audience === 'ID')!)).toEqual([]);
    expect(decodeURIComponent(jobSeeker.mailto)).toContain('العربية (arabiska)');
  });

  it('leaves out a language the operator switched off, and the whole line with Swedish alone', () => {
    expect(languagesLine(['sv', 'ar'])).toBe('Väntrummet och mötets knappar och texter finns också på العربية (arabiska): välj språk högst upp på sidan.');
    expect(languagesLine(['sv', 'en', 'so'])).toContain('English (engelska) och Soomaali (somaliska):');
    expect(languagesLine(['sv'])).toBe('');
    const { invitations } = invitationsFor(jobMeeting, 'https://videomote.example.se', null, ['sv']);
    expect(invitations.some((i) => i.body.includes('Väntrummet och mötets'))).toBe(false);
  });
});
