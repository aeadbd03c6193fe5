import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, testClock, type TestApp, type TestClient } from '../testing/test-app.ts';
import { listRoutes } from '../testing/app-routes.ts';
import { ownMeetingBody, systemMessageBody } from '../testing/request-bodies.ts';
import { NOW, requestFor, RULES, world, type Caller, type World } from './security-world.ts';

/**
 * Fuzz of every JSON route (POST/PUT with a body) and of every route's path parameters: malformed JSON, oversized
 * bodies, missing or null `data`, wrong types, huge strings, personnummer edge cases and HTML/script strings.
 * The property: never a 5xx, and every refusal in the spec's error shape. A seeded PRNG keeps runs reproducible
 * (FUZZ_SEED=… to try another seed) and the case count bounded (FUZZ_CASES per route).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const CASES = Number(process.env.FUZZ_CASES ?? 40);

/** mulberry32: small, fast, reproducible. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(document.cookie)">',
  '"><svg/onload=alert(1)>',
  "'; DROP TABLE meetings; --",
  '{{constructor.constructor("alert(1)")()}}',
  '${7*7}',
];

// Personnummer edge cases: coordination numbers, impossible dates, Luhn failures, '+' separator, future births,
// wrong lengths, spaces and non-ASCII digits.
const PINS = [
  '19900161-2385', '199001612385', '900161-2385', // coordination number (day + 60)
  '19900230-1234', '19901301-1234', '19900100-1234', '20000229-1230', '19000229-1234', // bad dates
  '19900101-2384', '199001012386', '9001012384', // Luhn failure
  '900101+2385', '19900101+2385', '121212+1212', // '+' separator (over 100)
  '20991231-1234', // born in the future
  '1990010123', '19900101238', '1990010123855', '19900101 2385', ' 199001012385 ', '19900101--2385',
  '١٩٩٠٠١٠١٢٣٨٥', // Arabic-Indic digits
  '0'.repeat(12), '-', '',
];

function junkValue(rng: Rng): unknown {
  switch (rng.int(16)) {
    case 0: return null;
    case 1: return rng.int(2) === 0;
    case 2: return rng.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, -0]);
    case 3: return 'x'.repeat(rng.pick([0, 1, 257, 4001, 100_000]));
    case 4: return rng.pick(HTML);
    case 5: return rng.pick(PINS);
    case 6: return [];
    case 7: return {};
    case 8: return Array.from({ length: rng.pick([1, 50, 1000]) }, () => rng.pick([1, 'a', null, {}]));
    case 9: return { __proto__: { isAdmin: true }, constructor: { prototype: { isAdmin: true } } };
    case 10: return rng.pick(['2026-02-30T10:00:00Z', 'not a date', '9999-12-31T23:59:59Z', '0000-01-01', '2026-11-20T25:61:00+01:00']);
    case 11: return rng.pick(['\u0000', '\ud800', '🙂'.repeat(1000), '\u202e', 'Å'.repeat(300), '%00', '../../etc/passwd']);
    case 12: return rng.pick(['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'NaN', 'undefined']);
    case 13: return rng.pick([-1, 0, 1, 999_999_999, 3.14]);
    case 14: return { data: { data: {} } };
    default: return String(rng.next());
  }
}

/** A copy of a JSON value with one random leaf (or container) replaced, removed, or wrapped. */
function mutate(value: unknown, rng: Rng, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 4 || rng.int(5) === 0) return junkValue(rng);
  if (Array.isArray(value)) {
    if (!value.length || rng.int(4) === 0) return rng.int(2) ? [...value, junkValue(rng)] : junkValue(rng);
    const i = rng.int(value.length);
    return value.map((v, j) => (j === i ? mutate(v, rng, depth + 1) : v));
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return { [rng.pick(['id', 'isAdmin', 'pin', 'role'])]: junkValue(rng) };
  const [k, v] = rng.pick(entries);
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  switch (rng.int(6)) {
    case 0: delete copy[k]; break;
    case 1: copy[`${k}_extra`] = junkValue(rng); break;
    default: copy[k] = mutate(v, rng, depth + 1);
  }
  return copy;
}

/** Personnummer in every place a body carries one: the participants of a booking, each with an edge case. */
function withPins(body: unknown, rng: Rng): unknown {
  const b = body as { participants?: Record<string, unknown>[] };
  if (!Array.isArray(b?.participants)) return mutate(body, rng);
  return { ...b, participants: [...b.participants, { role: rng.pick(['JobSeeker', 'Interpreter', 'ExternalParticipant']), displayName: 'Fuzz', pin: rng.pick(PINS) }] };
}

interface Case {
  label: string;
  payload: string;
  contentType: string;
}

function casesFor(body: unknown, rng: Rng, n: number): Case[] {
  const json = (label: string, v: unknown): Case => ({ label, payload: JSON.stringify(v), contentType: 'application/json' });
  const fixed: Case[] = [
    { label: 'malformed: truncated', payload: JSON.stringify({ data: body }).slice(0, -3), contentType: 'application/json' },
    { label: 'malformed: not JSON', payload: "{data: 'x',}", contentType: 'application/json' },
    { label: 'malformed: empty', payload: '', contentType: 'application/json' },
    { label: 'malformed: BOM and NUL', payload: '\ufeff{"data":\u0000}', contentType: 'application/json' },
    { label: 'malformed: deep nesting', payload: '{"data":' + '['.repeat(5000) + ']'.repeat(5000) + '}', contentType: 'application/json' },
    { label: 'oversized: 300 kB', payload: JSON.stringify({ data: { ...(body as object), pad: 'x'.repeat(300 * 1024) } }), contentType: 'application/json' },
    { label: 'wrong content type', payload: JSON.stringify({ data: body }), contentType: 'text/plain' },
    { label: 'form encoded', payload: 'data=x', contentType: 'application/x-www-form-urlencoded' },
    json('missing data', body),
    json('data: null', { data: null }),
    json('body: null', null),
    json('body: array', [{ data: body }]),
    json('data: string', { data: 'x' }),
    json('data: number', { data: 1 }),
    json('data: array', { data: [body] }),
    json('__proto__ pollution', JSON.parse(`{"data":${JSON.stringify(body)},"__proto__":{"isAdmin":true}}`)),
  ];
  const random: Case[] = [];
  for (let i = 0; i < n; i++) {
    const mutated = rng.int(4) === 0 ? withPins(body, rng) : mutate(body, rng);
    random.push(json(`mutation #${i}`, { data: mutated }));
  }
  return [...fixed, ...random];
}

/** The caller the rules let through for a route, so the fuzz reaches validation and rules, not just the auth check. */
function callerFor(key: string): Caller {
  const rule = RULES[key]!;
  return (['erik', 'anna', 'jonna', 'karin', 'nobody', 'visitor', 'outsider'] as const).find((c) => rule[c] < 300) ?? 'erik';
}

let t: TestApp;
let wd: World;
let ip = 0;
beforeAll(async () => {
  t = await buildTestApp({ clock: testClock(NOW) });
  wd = await world(t);
}, 120_000);
afterAll(async () => t?.close());

let failures: string[] = [];
beforeEach(() => {
  failures = [];
});
function check(label: string, res: LightMyRequestResponse): void {
  if (res.statusCode >= 500) {
    failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return;
  }
  if (res.statusCode >= 400) {
    let body: { name?: unknown; message?: unknown; statusCode?: unknown } = {};
    try {
      body = res.json();
    } catch {
      failures.push(`${label}: ${res.statusCode} without a JSON error body`);
      return;
    }
    if (typeof body.name !== 'string' || typeof body.message !== 'string' || body.statusCode !== res.statusCode) {
      failures.push(`${label}: ${res.statusCode} not in the error shape: ${res.body.slice(0, 200)}`);
    }
  }
}

/** A fresh session for the caller every route (the per-session write budget is 120 a minute). */
async function clientFor(caller: Caller): Promise<TestClient> {
  if (caller === 'nobody' || caller === 'visitor' || caller === 'outsider') return wd.clients[caller];
  return t.as(caller);
}

describe('fuzz', () => {
  it('every JSON route survives malformed, oversized, mistyped and hostile bodies without a 5xx', async () => {
    const rng = prng(SEED);
    const routes = listRoutes(t.app)
      .filter(([method, path]) => path.startsWith('/api/') && (method === 'POST' || method === 'PUT'))
      .map(([m, p]) => `${m} ${p}`);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    let sent = 0;
    for (const key of routes) {
      const [method, pattern] = key.split(' ') as [string, string];
      const caller = callerFor(key);
      const client = await clientFor(caller);
      const { url, body } = requestFor(method, pattern, wd);
      for (const c of casesFor(body ?? {}, rng, CASES)) {
        const res = await client.request({
          method: method as 'POST',
          url,
          payload: c.payload,
          headers: { 'content-type': c.contentType, 'x-forwarded-for': `10.8.${(ip >> 8) & 255}.${ip++ & 255}` },
        });
        sent++;
        check(`${key} as ${caller}, ${c.label} (${c.payload.slice(0, 120)})`, res);
        if (c.label.startsWith('oversized')) expect(res.statusCode, `${key} ${c.label}`).toBe(413);
        // text/plain is parsed as a string by Fastify, so the schema refuses it (400); other types are unsupported (415).
        if (c.label === 'wrong content type' || c.label === 'form encoded') expect([400, 415], `${key} ${c.label}`).toContain(res.statusCode);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * CASES);
  }, 240_000);

  it('path parameters of every route take junk without a 5xx', async () => {
    const rng = prng(SEED + 1);
    const junk = ['%00', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'x'.repeat(2000), '%F0%9F%99%82', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', "'%20OR%201=1--", '-1', '00000000-0000-0000-0000-000000000000', '%E2%80%AE', '%ZZ'];
    const routes = listRoutes(t.app).filter(([, path]) => path.startsWith('/api/') && path.includes(':'));
    for (const [method, pattern] of routes) {
      const key = `${method} ${pattern}`;
      const client = await clientFor(callerFor(key));
      const { body } = requestFor(method, pattern, wd);
      for (const j of junk) {
        const url = pattern.replace(/:[A-Za-z]+/g, () => (rng.int(3) === 0 ? wd.a.id : j));
        const res = await client.request({
          method: method as 'GET',
          url,
          payload: method === 'GET' || method === 'DELETE' ? undefined : { data: body ?? {} },
          headers: { 'x-forwarded-for': `10.6.${(ip >> 8) & 255}.${ip++ & 255}` },
        });
        check(`${key} as ${url.slice(0, 80)}`, res);
      }
    }
    // Query strings too: the list routes parse dates and the troubleshooter a free-text query.
    const erik = await t.as('erik');
    const anna = await t.as('anna');
    for (const q of ['from=2026-13-45&to=x', 'from=' + 'x'.repeat(5000), 'from[]=a&from[]=b', 'from=2026-11-20&to=1990-01-01', 'from=%00']) {
      check(`week ?${q.slice(0, 40)}`, await erik.get(`/api/meeting/week?${q}`));
      check(`day ?${q.slice(0, 40)}`, await erik.get(`/api/meeting/day?${q}`));
      check(`stats ?${q.slice(0, 40)}`, await anna.get(`/api/admin/stats?${q}`));
      check(`stats.csv ?${q.slice(0, 40)}`, await anna.get(`/api/admin/stats.csv?${q}`));
    }
    for (const q of ['', '%00', 'x'.repeat(5000), '%3Cscript%3E', "'%20OR%201=1--", '19900101-2385']) {
      check(`troubleshoot ?q=${q.slice(0, 40)}`, await anna.get(`/api/admin/troubleshoot?q=${q}`));
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('stores HTML and script strings as plain data and answers them as JSON, never as markup', async () => {
    const anna = await t.as('anna');
    const erik = await t.as('erik');
    const payload = HTML.slice(0, 3).join(' ');
    const message = await anna.post('/api/message', systemMessageBody({ value: payload }));
    expect(message.statusCode, message.body).toBe(200);
    const banner = await t.anonymous().get('/api/message');
    expect(banner.headers['content-type']).toMatch(/^application\/json/);
    expect(banner.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.stringify(banner.json().data)).toContain(JSON.stringify(payload).slice(1, -1));

    const booked = await erik.post('/api/meeting', ownMeetingBody('<img src=x onerror=alert(1)>', '2026-11-20T15:00:00+01:00', '2026-11-20T16:00:00+01:00'));
    expect(booked.statusCode, booked.body).toBe(200);
    const read = await erik.get(`/api/meeting/${booked.json().data.id}`);
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(read.json().data.title).toBe('<img src=x onerror=alert(1)>');
    const ics = await erik.get(`/api/meeting/${booked.json().data.id}/calendar.ics`);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);

    const report = await t.anonymous().request({
      method: 'POST',
      url: '/api/feedback/accessibility',
      payload: { data: { description: HTML[0], pageUrl: 'javascript:alert(1)' } },
      headers: { 'x-forwarded-for': '10.5.0.1' },
    });
    check('feedback with a javascript: url', report);
    if (report.statusCode < 300) {
      const list = (await anna.get('/api/feedback/accessibility')).json().data as { description: string }[];
      expect(list.some((r) => r.description === HTML[0])).toBe(true);
    }
    expect(failures).toEqual([]);
  });

  it('regressions the fuzz found: a lone surrogate in a visitor name, malformed and overlong paths', async () => {
    /** Enters webcast W with this exact JSON text as the body, from its own address. */
    const enterRaw = (payload: string, address: string) =>
      t.anonymous().request({
        method: 'POST',
        url: `/api/publicaccess/${wd.w.roomId}`,
        payload,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      });
    // Was a 500: jsonb refuses "\ud800" when the visitor's session was stored.
    const res = await enterRaw('{"data":{"displayName":"\\ud800"}}', '10.4.0.1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ name: 'ValidationError', message: 'Namn är obligatoriskt' });
    const named = await enterRaw('{"data":{"displayName":"Sa\\udc00ra"}}', '10.4.0.2');
    expect(named.statusCode).toBe(200);
    expect(named.json().data.displayName).toBe('Sara');
    // Were Fastify's English router errors without our shape.
    const erik = await t.as('erik');
    expect((await erik.get('/api/meeting/%ZZ')).json()).toEqual({ name: 'BadRequest', message: 'Felaktig förfrågan', statusCode: 400 });
    const long = await erik.get(`/api/meeting/${'x'.repeat(200)}`);
    expect(long.json()).toEqual({ name: 'BadRequest', message: 'Adressen är för lång', statusCode: 414 });
  });
});
