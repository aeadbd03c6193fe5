import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { listRoutes } from '../testing/app-routes.ts';
import { SIGNUP_TEXTS } from '@videomote/contract/signup';
import { newSignupCode } from '../modules/meetings/signup-code.ts';
import {
  CALLERS,
  EID_CALLERS,
  expectedSignupStatus,
  IN_A,
  NOW,
  PINS,
  requestFor,
  RULES,
  SIGNUP_CASES,
  STATEFUL_GETS,
  VISITOR_ROUTES,
  world,
  type SignupCase,
} from './security-world.ts';

/**
 * Authorization matrix: every API route of the running app × every kind of caller → the status the rule table
 * (security-world.ts) expects. Routes are read from Fastify's own route tree, so a route added later without a
 * rule fails the test ("new route without a rule") instead of silently going unchecked.
 *
 * Callers: the five personas, a browser without a session, an anonymous webcast visitor (entered through
 * POST /api/publicaccess/{roomId}, as the lobby does it), and a staff member who administers another meeting.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: testClock(NOW) });
}, 120_000);
afterAll(async () => t?.close());

describe('authorization matrix', () => {
  it('every API route has a rule, and every caller gets exactly the status the rule says', async () => {
    const routes = listRoutes(t.app).filter(([, path]) => path.startsWith('/api/'));
    const keys = routes.map(([m, p]) => `${m} ${p}`);
    const missing = keys.filter((k) => !RULES[k]);
    expect(missing, 'new route without a rule: add it to RULES in authorization-matrix.api.test.ts').toEqual([]);
    const stale = Object.keys(RULES).filter((k) => !keys.includes(k));
    expect(stale, 'rules for routes that no longer exist').toEqual([]);

    const mismatches: string[] = [];
    const observed: string[] = [];
    let wd = await world(t);
    let dirty = false;
    for (const key of keys) {
      const [method, pattern] = key.split(' ') as [string, string];
      const changes = method !== 'GET' || STATEFUL_GETS.has(key);
      const seen: number[] = [];
      for (const caller of CALLERS) {
        if (dirty) {
          wd = await world(t);
          dirty = false;
        }
        const { url, body } = requestFor(method, pattern, wd);
        const res = await wd.clients[caller].request({
          method: method as 'GET',
          url,
          payload: body === undefined ? undefined : { data: body },
          // Each caller its own address, so the per-address rate limit of the no-session browser stays out of it.
          headers: { 'x-forwarded-for': `10.7.${CALLERS.indexOf(caller)}.${keys.indexOf(key) & 255}` },
        });
        seen.push(res.statusCode);
        if (res.statusCode >= 500) mismatches.push(`${key} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode !== RULES[key]![caller]) {
          mismatches.push(`${key} as ${caller}: expected ${RULES[key]![caller]}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
        if (changes && res.statusCode < 400) dirty = true;
        // Whatever a caller may call, it never sees meeting A unless it is in A, nor anybody else's personnummer.
        if (res.statusCode < 300 && !IN_A.has(caller) && (res.body.includes('Möte A') || res.body.includes(wd.a.roomId))) {
          mismatches.push(`${key} as ${caller}: answer shows meeting A`);
        }
        for (const [owner, pin] of PINS) {
          if (owner !== caller && pin.some((form) => res.body.includes(form))) mismatches.push(`${key} as ${caller}: answer holds ${owner}'s personnummer`);
        }
        // Outside the routes its webcast needs, the visitor is refused by the fence itself, with the fence's message.
        if (caller === 'visitor' && res.statusCode === 403 && !VISITOR_ROUTES.has(key) && res.json().message !== 'Inte tillåtet för besökare') {
          mismatches.push(`${key} as visitor: refused, but not by the visitor fence (${res.body.slice(0, 120)})`);
        }
      }
      observed.push(`  '${key}': row('${seen.join(' ')}'),`);
    }
    if (process.env.MATRIX_PRINT) console.log(observed.join('\n'));
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('sign-up: for each meeting type, sign-up on/off and the right, a wrong, a renewed or no code, every caller — no unexpected allow', async () => {
    const wd = await world(t);
    const erik = wd.clients.erik;
    // One meeting per type and sign-up state, set up the way the admin does it: on, link read, renewed, maybe off.
    const meetings = new Map<string, { id: string; codes: Record<SignupCase['link'], string | undefined> }>();
    for (const type of [0, 1] as const) {
      for (const state of ['on', 'off'] as const) {
        const booked = await erik.post('/api/meeting', {
          title: `Självregistrering ${type} ${state}`,
          type,
          startTime: '2026-11-21T10:00:00+01:00',
          endTime: '2026-11-21T11:00:00+01:00',
          signupEnabled: true,
          participants: [{ currentUser: true, role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }],
        });
        expect(booked.statusCode, booked.body).toBe(200);
        const id: string = booked.json().data.id;
        const codeIn = (links: { label: string; url: string }[]) => new URL(links.find((l) => l.label === 'Länk för självregistrering')!.url).searchParams.get('code')!;
        const before = codeIn((await erik.get(`/api/meeting/${id}/invitations`)).json().data.links);
        const renewed = await erik.post(`/api/meeting/${id}/signupcode`, {});
        expect(renewed.statusCode, renewed.body).toBe(200);
        const current = codeIn(renewed.json().data.links);
        if (state === 'off') {
          const meeting = (await erik.get(`/api/meeting/${id}`)).json().data;
          expect((await erik.put('/api/meeting', { ...meeting, signupEnabled: false })).statusCode).toBe(200);
        }
        meetings.set(`${type} ${state}`, { id, codes: { right: current, renewed: before, wrong: newSignupCode(), none: undefined } });
      }
    }

    const mismatches: string[] = [];
    let allows = 0;
    let expectedAllows = 0;
    for (const c of SIGNUP_CASES) {
      const { id, codes } = meetings.get(`${c.type} ${c.state}`)!;
      const code = codes[c.link];
      for (const caller of CALLERS) {
        const headers = { 'x-forwarded-for': `10.8.${CALLERS.indexOf(caller)}.${SIGNUP_CASES.indexOf(c)}` };
        const label = `type ${c.type}, sign-up ${c.state}, ${c.link} code, as ${caller}`;
        const client = wd.clients[caller];
        const info = await client.request({ method: 'GET', url: `/api/meeting/validateexternaluser/${id}${code ? `?code=${code}` : ''}`, headers });
        const register = await client.request({ method: 'POST', url: '/api/meeting/addexternaluser', payload: { data: { meetingId: id, signedForm: true, code } }, headers });
        for (const [route, res] of [['info', info], ['register', register]] as const) {
          const expected = expectedSignupStatus(route, caller, c);
          if (res.statusCode !== expected) mismatches.push(`${route} ${label}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          if (route === 'register' && res.statusCode < 300) allows++;
          if (route === 'register' && expected < 300) expectedAllows++;
          // A refused link gets the spec's error shape with the Swedish text that tells the person what to do.
          if (res.statusCode === 403 && EID_CALLERS.has(caller) && res.json().message !== SIGNUP_TEXTS.linkInvalid) {
            mismatches.push(`${route} ${label}: refused without the sign-up link text (${res.body.slice(0, 120)})`);
          }
        }
        if (register.statusCode === 200) {
          // Registered, never admin; then taken out again so that the next caller meets the same meeting.
          const me = register.json().data.participants.find((p: { currentUser: boolean }) => p.currentUser);
          if (me?.isAdmin !== false || me.role !== (c.type === 1 ? 'PresenterExternal' : 'ExternalParticipant')) mismatches.push(`${label}: registered as ${JSON.stringify(me)}`);
          await t.db.query('DELETE FROM meeting_participants WHERE meeting_id = $1 AND self_registered', [id]);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // Three e-ID callers × two meeting types, with the current link while sign-up is on: nothing else gets in.
    expect(expectedAllows).toBe(6);
    expect(allows).toBe(expectedAllows);
  }, 300_000);
});
