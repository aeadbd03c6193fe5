import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { SESSION_COOKIE } from '../platform/session.ts';
import { listRoutes } from '../testing/app-routes.ts';
import { CALLERS, NOW, world, type Caller, type World } from './security-world.ts';

/**
 * Authorization matrix of the WebSocket upgrades, the sibling of authorization-matrix.api.test.ts for
 * what is not under /api/: every upgrade route × every caller (the five personas, no session, an anonymous visitor
 * of webcast W, a staff member of another meeting) → 101 (upgraded) or the status of the refused handshake. Real
 * upgrade requests against the listening server, through the same hooks a browser meets.
 *
 * Routes are read from Fastify's route tree: every route outside /api/ must be either a plain HTTP route listed in
 * PLAIN_ROUTES or an upgrade route with rules below, so a new WebSocket route without a rule fails this test.
 */

// Plain HTTP routes outside /api/ (not upgrades): health, metrics, the client config, the embedded test IdP.
const PLAIN_ROUTES = new Set(['/assets/config/config.json', '/healthz', '/readyz', '/metrics', '/idp', '/idp*', '/idp/assets/idp.css', '/idp/assets/logout.js', '/idp/interaction/:uid', '/idp/interaction/:uid/login', '/idp/interaction/:uid/abort']);

/** The built web app (when a build exists, as in `npm test`): each of its files is a plain static route. */
const WEB_DIST = process.env.WEB_DIST || fileURLToPath(new URL('../../../web/dist', import.meta.url));
const isWebFile = (route: string) => !/[:*]/.test(route) && fs.statSync(path.join(WEB_DIST, route), { throwIfNoEntry: false })?.isFile() === true;

/** One expected status per caller, in the order of CALLERS: anna erik karin fredrik jonna nobody visitor outsider. */
const row = (statuses: string): Record<Caller, number> => {
  const parts = statuses.trim().split(/\s+/).map(Number);
  if (parts.length !== CALLERS.length) throw new Error(`bad rule row: ${statuses}`);
  return Object.fromEntries(CALLERS.map((c, i) => [c, parts[i]!])) as Record<Caller, number>;
};

type Case = { name: string; url: (wd: World, caller: Caller, tokens: Tokens) => string; origin?: string; expect: Record<Caller, number> };
type Tokens = Partial<Record<Caller, Record<string, string>>>;

//                                                                  anna erik karin fredrik jonna nobody visitor outsider
const UPGRADE_RULES: Record<string, Case[]> = {
  // Chat: the meeting's participants, and a webcast's visitors for that webcast; no session 401, others 403.
  'GET /chat/:meetingId': [
    { name: 'meeting A', url: (wd) => `/chat/${wd.a.id}`, expect: row('403 101 101 101 101 401 403 403') },
    { name: 'webcast W', url: (wd) => `/chat/${wd.w.id}`, expect: row('403 101 403 403 403 401 101 403') },
    { name: 'meeting B', url: (wd) => `/chat/${wd.b.id}`, expect: row('403 403 403 403 403 401 403 101') },
    { name: 'unknown meeting', url: () => '/chat/00000000-0000-4000-8000-000000000000', expect: row('403 403 403 403 403 401 403 403') },
    // SECURITY: a cross-site page cannot ride on the member's cookie (the origin is checked before the session).
    { name: 'A from a foreign origin', url: (wd) => `/chat/${wd.a.id}`, origin: 'https://evil.example', expect: row('403 403 403 403 403 403 403 403') },
  ],
  // Media relay: the caller's own media token for that meeting and membership; anything else 403 before the upgrade.
  'GET /media/:meetingId': [
    { name: 'A with own token for A', url: (wd, c, tk) => `/media/${wd.a.id}?token=${encodeURIComponent(tk[c]?.[wd.a.id] ?? '')}`, expect: row('403 101 101 101 101 403 403 403') },
    { name: 'A with own token for another meeting', url: (wd, c, tk) => `/media/${wd.a.id}?token=${encodeURIComponent(Object.entries(tk[c] ?? {}).find(([m]) => m !== wd.a.id)?.[1] ?? '')}`, expect: row('403 403 403 403 403 403 403 403') },
    { name: 'A with Jonna’s token (stolen)', url: (wd, _c, tk) => `/media/${wd.a.id}?token=${encodeURIComponent(tk.jonna![wd.a.id]!)}`, expect: row('403 403 403 403 101 403 403 403') },
    { name: 'W with own token for W', url: (wd, c, tk) => `/media/${wd.w.id}?token=${encodeURIComponent(tk[c]?.[wd.w.id] ?? '')}`, expect: row('403 101 403 403 403 403 101 403') },
    // SECURITY: a cross-site page cannot open a member's relay with their cookie and a token it got hold of.
    { name: 'A with own token from a foreign origin', url: (wd, c, tk) => `/media/${wd.a.id}?token=${encodeURIComponent(tk[c]?.[wd.a.id] ?? '')}`, origin: 'https://evil.example', expect: row('403 403 403 403 403 403 403 403') },
    { name: 'W with own token from a foreign origin', url: (wd, c, tk) => `/media/${wd.w.id}?token=${encodeURIComponent(tk[c]?.[wd.w.id] ?? '')}`, origin: 'http://localhost.evil.example', expect: row('403 403 403 403 403 403 403 403') },
  ],
};

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ clock: testClock(NOW) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => t?.close());

/** 101 when the server upgraded the connection (closed again at once), else the HTTP status of the refusal. */
function upgrade(url: string, cookie: string | undefined, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${base}${url}`, { headers: { ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}), ...(origin ? { origin } : {}) } });
    socket.once('upgrade', () => {
      resolve(101);
      socket.terminate();
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', () => resolve(-1));
  });
}

/** Each caller's media tokens, by meeting, for the meetings the server gives them one for (members only). */
async function tokensOf(wd: World): Promise<Tokens> {
  const tokens: Tokens = {};
  for (const caller of CALLERS) {
    for (const meeting of [wd.a, wd.b, wd.w]) {
      const res = await wd.clients[caller].post('/api/meeting/gettoken', { meetingId: meeting.id, displayName: 'Sara' });
      if (res.statusCode === 200) (tokens[caller] ??= {})[meeting.id] = res.json().data.tokenData.token as string;
    }
  }
  return tokens;
}

describe('authorization matrix of the WebSocket upgrades', () => {
  it('every route outside /api/ is a listed plain route or an upgrade route with rules', () => {
    const outside = listRoutes(t.app).filter(([method, path]) => !path.startsWith('/api/') && method === 'GET');
    const unclassified = outside
      .filter(([, route]) => !PLAIN_ROUTES.has(route) && !isWebFile(route) && !UPGRADE_RULES[`GET ${route}`])
      .map(([m, p]) => `${m} ${p}`);
    expect(unclassified, 'new route outside /api/ without a rule: add it to UPGRADE_RULES (WebSocket) or PLAIN_ROUTES').toEqual([]);
    const stale = Object.keys(UPGRADE_RULES).filter((key) => !outside.some(([m, p]) => `${m} ${p}` === key));
    expect(stale, 'rules for upgrade routes that no longer exist').toEqual([]);
  });

  it('every caller gets exactly the upgrade or the refusal the rule says', async () => {
    const wd = await world(t);
    const tokens = await tokensOf(wd);
    // The tokens the rules rely on were handed out: to A's members for A, to W's presenter and visitor for W.
    expect(Object.fromEntries(CALLERS.map((c) => [c, Object.keys(tokens[c] ?? {}).length]))).toEqual({ anna: 0, erik: 2, karin: 1, fredrik: 1, jonna: 1, nobody: 0, visitor: 1, outsider: 1 });
    const mismatches: string[] = [];
    for (const [route, cases] of Object.entries(UPGRADE_RULES)) {
      for (const c of cases) {
        for (const caller of CALLERS) {
          const status = await upgrade(c.url(wd, caller, tokens), wd.clients[caller].cookies[SESSION_COOKIE], c.origin);
          if (status !== c.expect[caller]) mismatches.push(`${route} (${c.name}) as ${caller}: expected ${c.expect[caller]}, got ${status}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});
