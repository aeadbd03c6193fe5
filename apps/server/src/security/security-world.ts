import { expect } from 'vitest';
import type { TestApp, TestClient } from '../testing/test-app.ts';
import { insertMeeting } from '../testing/fixtures.ts';
import { ownMeetingBody, systemMessageBody } from '../testing/request-bodies.ts';
import { SESSION_COOKIE } from '../platform/session.ts';
import { sessionUserFromClaims } from '../modules/identity/session-user.ts';
import { personaByKey } from '../modules/identity/personas.ts';
import { newSignupCode } from '../modules/meetings/signup-code.ts';

/**
 * What the security tests share: the callers, the rule table of who may call which API route (checked against the
 * route list read from the running app, testing/app-routes.ts), and a seeded world (meetings, a system message, a
 * logged-in client per caller).
 *
 * Meeting A is the meeting the routes are aimed at: Erik books and administers it, Karin, Fredrik and Jonna are
 * its participants, Anna is not in it (she is the system administrator). Meeting B belongs to the outsider, a staff
 * member who administers B only. W is a webcast running now; the visitor entered it by its link. A has sign-up on,
 * and the requests carry its code: the sign-up dimension (off, wrong and renewed codes) is SIGNUP_CASES below.
 */

export const NOW = '2026-11-20T09:30:00+01:00'; // a Friday, Stockholm winter time
export const CALLERS = ['anna', 'erik', 'karin', 'fredrik', 'jonna', 'nobody', 'visitor', 'outsider'] as const;
export type Caller = (typeof CALLERS)[number];

/** One expected status per caller, in the order of CALLERS: anna erik karin fredrik jonna nobody visitor outsider. */
const row = (statuses: string): Record<Caller, number> => {
  const parts = statuses.trim().split(/\s+/).map(Number);
  if (parts.length !== CALLERS.length || parts.some((n) => !Number.isInteger(n))) throw new Error(`bad rule row: ${statuses}`);
  return Object.fromEntries(CALLERS.map((c, i) => [c, parts[i]!])) as Record<Caller, number>;
};

// The rule table, checked against the spec and each module's rules. Columns:
//                                               anna erik karin fredrik jonna nobody visitor outsider
// Not a participant of the meeting (Anna too: system admin is not meeting admin) → 404, exactly as for an
// unknown id, so a stranger cannot even learn that the meeting exists.
export const RULES: Record<string, Record<Caller, number>> = {
  // Start-up, session and login calls: open to every caller, the visitor included (its webcast page needs them).
  'GET /api/getantiforgerydata': /*         */ row('200 200 200 200 200 200 200 200'),
  'GET /api/login/start': /*                */ row('302 302 302 302 302 302 302 302'),
  'GET /api/login/callback': /*             */ row('302 302 302 302 302 302 302 302'),
  'GET /api/login/getuserdata': /*          */ row('200 200 200 200 200 401 200 200'),
  'GET /api/login/keepalive': /*            */ row('200 200 200 200 200 401 200 200'),
  'POST /api/login/logout': /*              */ row('200 200 200 200 200 200 200 200'),
  'GET /api/login/endsession': /*           */ row('302 302 302 302 302 302 302 302'),
  'GET /api/featureflags': /*               */ row('200 200 200 200 200 200 200 200'),
  // Accessibility reports: anyone may send one (the statement page is public); only the admin reads them.
  'POST /api/feedback/accessibility': /*    */ row('201 201 201 201 201 201 201 201'),
  'GET /api/feedback/accessibility': /*     */ row('200 403 403 403 403 401 403 403'),
  // System messages: the banner poll is public; managing them is the administrator's.
  'GET /api/message': /*                    */ row('200 200 200 200 200 200 200 200'),
  'GET /api/message/all': /*                */ row('200 403 403 403 403 401 403 403'),
  'POST /api/message': /*                   */ row('200 403 403 403 403 401 403 403'),
  'PUT /api/message': /*                    */ row('200 403 403 403 403 401 403 403'),
  'GET /api/message/:id': /*                */ row('200 403 403 403 403 401 403 403'),
  'PUT /api/message/:id': /*                */ row('200 403 403 403 403 401 403 403'),
  'DELETE /api/message/:id': /*             */ row('200 403 403 403 403 401 403 403'),
  // Meetings: lists are everyone's own; staff may book (KA/FA/participants cannot book as EmploymentOfficer);
  // a meeting is read by its participants; changed, copied, deleted and counted only by its meeting admins.
  'GET /api/meeting/day': /*                */ row('200 200 200 200 200 401 403 200'),
  'GET /api/meeting/week': /*               */ row('200 200 200 200 200 401 403 200'),
  'GET /api/meetingweek': /*                */ row('200 200 200 200 200 401 403 200'),
  'POST /api/meeting': /*                   */ row('200 200 403 403 403 401 403 200'),
  'PUT /api/meeting': /*                    */ row('404 200 403 403 403 401 403 404'),
  'GET /api/meeting/:id': /*                */ row('404 200 200 200 200 401 403 404'),
  'DELETE /api/meeting/:id': /*             */ row('404 200 403 403 403 401 403 404'),
  'GET /api/meeting/copy/:id': /*           */ row('404 200 403 403 403 401 403 404'),
  'GET /api/meeting/:id/invitations': /*    */ row('404 200 200 200 200 401 403 404'),
  'GET /api/meeting/:id/calendar.ics': /*   */ row('404 200 200 200 200 401 403 404'),
  'PUT /api/meeting/:id/:count': /*         */ row('404 200 403 403 403 401 403 404'),
  // The lobby's connection check: each participant checks and reports their own; only the meeting's staff read them.
  'POST /api/meeting/:id/connectioncheck': /**/ row('404 200 200 200 200 401 403 404'),
  'POST /api/meeting/:id/connectioncheck/result': row('404 200 200 200 200 401 403 404'),
  'GET /api/meeting/:id/connectionchecks': /**/ row('404 200 403 403 403 401 403 404'),
  // Lobby and self sign-up with A's current code (e-ID only; Karin, Fredrik and Jonna are already booked → 409).
  // Renewing the sign-up code is the meeting admin's.
  'GET /api/lobby/:id': /*                  */ row('403 200 200 200 200 401 403 403'),
  'POST /api/meeting/:id/signupcode': /*    */ row('404 200 403 403 403 401 403 404'),
  'POST /api/lobby/:id/consent': /*         */ row('403 200 200 200 200 401 403 403'),
  'DELETE /api/lobby/:id/consent': /*       */ row('403 200 200 200 200 401 403 403'),
  'GET /api/meeting/validateexternaluser/:id': row('200 200 200 200 200 401 403 200'),
  // The meeting type alone, for the sign-up page without a code: open like the page (see SignupType).
  'GET /api/meeting/signuptype/:id': /*     */ row('200 200 200 200 200 200 200 200'),
  'POST /api/meeting/addexternaluser': /*   */ row('403 403 409 409 409 401 403 403'),
  // Public access to a webcast by its link: no login needed; entering replaces the browser's session.
  'GET /api/meeting/getidbyroomid/:roomId': row('200 200 200 200 200 200 200 200'),
  'POST /api/publicaccess/:roomId': /*      */ row('200 200 200 200 200 200 200 200'),
  // Conference: token, room lookup and rating only for the meeting's own people; the visitor only in its webcast.
  'POST /api/meeting/gettoken': /*          */ row('403 200 200 200 200 401 403 403'),
  'GET /api/meeting/getmeetingbyroomid/:roomId': row('404 200 200 200 200 404 404 404'),
  'POST /api/meetingpoll': /*               */ row('403 200 200 200 200 401 403 403'),
  // Felsökning's call-error reports: like the rating, only from the meeting's own people (and its webcast's visitors).
  'POST /api/meetingerror': /*              */ row('403 200 200 200 200 401 403 403'),
  // Moderation: members get past the rule only with the capability (screen-share takeover is every member's,
  // mute and kick the meeting admin's), then 404 for the unknown connection; non-members 403.
  'POST /api/media/:meetingId/forceunpublish': row('403 404 404 404 404 401 403 403'),
  'POST /api/media/:meetingId/forcemute': /**/ row('403 404 403 403 403 401 403 403'),
  'POST /api/media/:meetingId/kick': /*     */ row('403 404 403 403 403 401 403 403'),
  // Administration: the Admin role only (troubleshoot answers 404 for an unknown meeting link).
  'GET /api/admin/groups': /*               */ row('200 403 403 403 403 401 403 403'),
  'PUT /api/admin/groups': /*               */ row('200 403 403 403 403 401 403 403'),
  'GET /api/admin/appsettings': /*          */ row('200 403 403 403 403 401 403 403'),
  'PUT /api/admin/appsettings/flags': /*    */ row('200 403 403 403 403 401 403 403'),
  'GET /api/admin/troubleshoot': /*         */ row('404 403 403 403 403 401 403 403'),
  'GET /api/admin/stats': /*                */ row('200 403 403 403 403 401 403 403'),
  'GET /api/admin/stats.csv': /*            */ row('200 403 403 403 403 401 403 403'),
  // The staff directory: for staff only (InternalMeeting, the feature that adds a colleague), not for contractors
  // (KA, FA), who book but never add staff, nor for job seekers. Rate-limited per person (directory.api.test.ts).
  'GET /api/employee/:query': /*            */ row('200 200 403 403 403 401 403 200'),
};

export interface World {
  a: { id: string; roomId: string; signupCode: string };
  b: { id: string; roomId: string };
  w: { id: string; roomId: string };
  messageId: string;
  meetingA: Record<string, unknown>;
  clients: Record<Caller, TestClient>;
}

let visitorIp = 0;

/** A fresh database with meetings A, B and webcast W, a system message, and a logged-in client per caller. */
export async function world(t: TestApp): Promise<World> {
  await t.reset();
  t.clock.set(NOW);
  const { db } = t;
  const { pins } = t.app.deps;
  const signupCode = newSignupCode();
  const a = await insertMeeting(db, pins, {
    title: 'Möte A',
    signupCode,
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'karin', role: 'PrivateContractor' },
      { persona: 'fredrik', role: 'PrivateContractor' },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
  const b = await insertMeeting(db, pins, {
    title: 'Möte B',
    start: '2026-11-20T13:00:00+01:00',
    end: '2026-11-20T14:00:00+01:00',
    participants: [{ afId: 'ottann', displayName: 'Otto Annan', role: 'EmploymentOfficer', isAdmin: true }],
  });
  const w = await insertMeeting(db, pins, {
    title: 'Webbsändning W',
    type: 1,
    start: '2026-11-20T09:00:00+01:00',
    end: '2026-11-20T12:00:00+01:00',
    participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
  });
  const outsider = sessionUserFromClaims(
    { sub: 'test-otto', given_name: 'Otto', family_name: 'Annan', roles: 'VIDMedarbetare', af_id: 'ottann' },
    pins,
  );
  const clients = {
    anna: await t.as('anna'),
    erik: await t.as('erik'),
    karin: await t.as('karin'),
    fredrik: await t.as('fredrik'),
    jonna: await t.as('jonna'),
    nobody: t.anonymous(),
    visitor: t.anonymous(),
    outsider: await t.as(outsider),
  } satisfies Record<Caller, TestClient>;
  // The visitor enters W by its link, like a browser: a distinct address so public access's rate limit stays out of it.
  const entered = await t.anonymous().request({
    method: 'POST',
    url: `/api/publicaccess/${w.roomId}`,
    payload: { data: { displayName: 'Sara' } },
    headers: { 'x-forwarded-for': `10.9.${(visitorIp >> 8) & 255}.${visitorIp++ & 255}` },
  });
  expect(entered.statusCode, entered.body).toBe(200);
  clients.visitor.cookies[SESSION_COOKIE] = entered.cookies.find((c) => c.name === SESSION_COOKIE)!.value;

  // Every booked person has passed the lobby of their meetings (its consent), as they would before a call.
  for (const [caller, meeting] of [['erik', a], ['karin', a], ['fredrik', a], ['jonna', a], ['outsider', b], ['erik', w]] as const) {
    const consent = await clients[caller].post(`/api/lobby/${meeting.id}/consent`, {});
    expect(consent.statusCode, consent.body).toBe(200);
  }
  const message = await clients.anna.post('/api/message', systemMessageBody());
  expect(message.statusCode, message.body).toBe(200);
  const meetingA = (await clients.erik.get(`/api/meeting/${a.id}`)).json().data;
  return { a: { ...a, signupCode }, b, w, messageId: message.json().data.id, meetingA, clients };
}

/** The concrete request for a route pattern: real ids of the world, and a valid body so the answer is about who asks. */
export function requestFor(method: string, pattern: string, wd: World): { url: string; body?: unknown } {
  const A = wd.a.id;
  const message = systemMessageBody({ value: 'Ändrat underhåll', showInternal: false, showKauser: false });
  const key = `${method} ${pattern}`;
  switch (key) {
    case 'GET /api/login/callback':
      return { url: '/api/login/callback?code=x&state=y' };
    case 'GET /api/admin/troubleshoot':
      return { url: '/api/admin/troubleshoot?q=abc' };
    case 'GET /api/employee/:query':
      return { url: '/api/employee/eri' };
    case 'GET /api/meeting/getidbyroomid/:roomId':
      return { url: `/api/meeting/getidbyroomid/${wd.w.roomId}` };
    case 'POST /api/publicaccess/:roomId':
      return { url: `/api/publicaccess/${wd.w.roomId}`, body: { displayName: 'Besök' } };
    case 'GET /api/meeting/getmeetingbyroomid/:roomId':
      return { url: `/api/meeting/getmeetingbyroomid/${wd.a.roomId}` };
    case 'POST /api/feedback/accessibility':
      return { url: pattern, body: { description: 'Låg kontrast i sidfoten' } };
    case 'POST /api/message':
      return { url: pattern, body: message };
    case 'PUT /api/message':
      return { url: pattern, body: { ...message, id: wd.messageId, version: 1 } };
    case 'PUT /api/message/:id':
      return { url: `/api/message/${wd.messageId}`, body: { ...message, version: 1 } };
    case 'GET /api/message/:id':
    case 'DELETE /api/message/:id':
      return { url: `/api/message/${wd.messageId}` };
    case 'POST /api/meeting':
      return {
        url: pattern,
        body: ownMeetingBody('Nytt samtal', '2026-11-20T15:00:00+01:00', '2026-11-20T16:00:00+01:00'),
      };
    case 'PUT /api/meeting':
      return { url: pattern, body: { ...wd.meetingA, title: 'Ändrat av någon' } };
    case 'PUT /api/meeting/:id/:count':
      return { url: `/api/meeting/${A}/3`, body: { id: A, countInfoParticipants: 3 } };
    case 'POST /api/meeting/addexternaluser':
      return { url: pattern, body: { meetingId: A, signedForm: true, code: wd.a.signupCode } };
    case 'GET /api/meeting/validateexternaluser/:id':
      return { url: `/api/meeting/validateexternaluser/${A}?code=${wd.a.signupCode}` };
    case 'POST /api/meeting/gettoken':
      return { url: pattern, body: { meetingId: A, displayName: 'K' } };
    case 'POST /api/meetingpoll':
      return { url: pattern, body: { meetingId: A, callQuality: 4 } };
    case 'POST /api/meetingerror':
      return { url: pattern, body: { meetingId: A, code: 'connectionFailed', message: 'ICE failed' } };
    case 'POST /api/media/:meetingId/forceunpublish':
    case 'POST /api/media/:meetingId/forcemute':
    case 'POST /api/media/:meetingId/kick':
      return { url: pattern.replace(':meetingId', A), body: { connectionId: 'no-such-connection' } };
    case 'POST /api/meeting/:id/connectioncheck/result':
      return { url: `/api/meeting/${A}/connectioncheck/result`, body: { result: 'direct' } };
    case 'PUT /api/admin/groups':
      return { url: pattern, body: { grants: [{ role: 'VIDMedarbetare', features: ['EditMeeting', 'InternalMeeting'], isAdmin: false }] } };
    case 'PUT /api/admin/appsettings/flags':
      return { url: pattern, body: { flags: { callRating: false } } };
  }
  const url = pattern.replace(/:(id|meetingId)\b/g, A).replace(/:roomId\b/g, wd.a.roomId);
  return { url, body: method === 'GET' || method === 'DELETE' ? undefined : {} };
}

// The routes that accept an anonymous visitor's session (config.anonymousVisitor); every other /api/ route is fenced.
export const VISITOR_ROUTES = new Set([
  'GET /api/featureflags',
  'POST /api/feedback/accessibility',
  'GET /api/login/start',
  'GET /api/login/callback',
  'GET /api/getantiforgerydata',
  'GET /api/login/getuserdata',
  'GET /api/login/keepalive',
  'POST /api/login/logout',
  'GET /api/login/endsession',
  'GET /api/meeting/getidbyroomid/:roomId',
  'GET /api/meeting/signuptype/:id',
  'POST /api/publicaccess/:roomId',
  'POST /api/meeting/gettoken',
  'GET /api/meeting/getmeetingbyroomid/:roomId',
  'PUT /api/meeting/:id/:count',
  'GET /api/message',
  'POST /api/meetingpoll',
  'POST /api/meetingerror',
]);

export const IN_A = new Set<Caller>(['erik', 'karin', 'fredrik', 'jonna']);
/** The e-ID personas' personnummer in the forms an answer could carry them. */
export const PINS: [Caller, string[]][] = (['karin', 'fredrik', 'jonna'] as const).map((key) => {
  const pin = personaByKey(key).pin!;
  return [key, [pin, pin.slice(2), `${pin.slice(0, 8)}-${pin.slice(8)}`, `${pin.slice(2, 8)}-${pin.slice(8)}`]];
});

/**
 * The sign-up dimension: for each meeting type, sign-up on or off, and a link with the right code (the current one;
 * with sign-up off, the one that was current when it was turned off), a wrong one, the one before a renewal, or none.
 */
export const SIGNUP_STATES = ['on', 'off'] as const;
export const SIGNUP_LINKS = ['right', 'wrong', 'renewed', 'none'] as const;
export interface SignupCase {
  type: 0 | 1;
  state: (typeof SIGNUP_STATES)[number];
  link: (typeof SIGNUP_LINKS)[number];
}
export const SIGNUP_CASES: SignupCase[] = ([0, 1] as const).flatMap((type) =>
  SIGNUP_STATES.flatMap((state) => SIGNUP_LINKS.map((link) => ({ type, state, link }))),
);

/** The e-ID callers: the only ones who can register themselves (the personnummer later lets them in). */
export const EID_CALLERS = new Set<Caller>(['karin', 'fredrik', 'jonna']);

/**
 * The rule for a meeting none of the callers is in but Erik, its admin: reading the sign-up page's facts needs the
 * current link (or being in the meeting); registering needs the current link and an e-ID login. Everything else is
 * refused: 401 without a session, 403 otherwise (the visitor by its fence).
 */
export function expectedSignupStatus(route: 'info' | 'register', caller: Caller, c: SignupCase): number {
  if (caller === 'nobody') return 401;
  if (caller === 'visitor') return 403;
  const linkWorks = c.state === 'on' && c.link === 'right';
  if (route === 'info') return caller === 'erik' || linkWorks ? 200 : 403;
  return EID_CALLERS.has(caller) && linkWorks ? 200 : 403;
}

// GET routes that change the caller's state, so each caller needs a fresh world after them.
export const STATEFUL_GETS = new Set(['GET /api/login/endsession']);

