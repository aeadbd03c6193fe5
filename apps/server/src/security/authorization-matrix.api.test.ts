import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { listRoutes } from '../testing/app-routes.ts';
import { CALLERS, IN_A, NOW, PINS, requestFor, RULES, STATEFUL_GETS, VISITOR_ROUTES, world } from './security-world.ts';

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
});
