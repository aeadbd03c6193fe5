import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';
import { PERSONAS } from './personas.ts';

/**
 * The whole login through the embedded IdP, as a browser would do it: our start route, the provider's
 * authorization endpoint, its Swedish login page, the persona button or the personnummer form, the callback,
 * and then the API with the new session. Everything runs in the real app on a real database.
 */
const t = useTestApp();
const ORIGIN = 'http://localhost:3000';

/** A browser's cookie jar and redirect following, over `inject`. */
class Browser {
  cookies = new Map<string, string>();
  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>, json?: { headers: Record<string, string>; body: unknown }): Promise<LightMyRequestResponse> {
    const u = new URL(url, ORIGIN);
    expect(u.origin).toBe(ORIGIN);
    const res = await t.app.inject({
      method,
      url: u.pathname + u.search,
      headers: {
        host: 'localhost:3000',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(json ? { 'content-type': 'application/json', ...json.headers } : {}),
      },
      cookies: Object.fromEntries(this.cookies),
      payload: form ? new URLSearchParams(form).toString() : json ? JSON.stringify(json.body) : undefined,
    });
    for (const c of res.cookies) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  /** Follows redirects until a page that is not one. */
  async follow(res: LightMyRequestResponse, max = 10): Promise<LightMyRequestResponse> {
    while (res.statusCode >= 300 && res.statusCode < 400 && max-- > 0) res = await this.request('GET', String(res.headers.location));
    return res;
  }
  get(url: string) {
    return this.request('GET', url);
  }
}

async function toLoginPage(b: Browser, returnUrl = '/meetings') {
  const start = await b.get(`/api/login/start?returnUrl=${encodeURIComponent(returnUrl)}`);
  expect(start.statusCode).toBe(302);
  const auth = new URL(String(start.headers.location));
  expect(auth.origin + auth.pathname).toBe(`${ORIGIN}/idp/auth`);
  expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
  expect(auth.searchParams.get('state')).toBeTruthy();
  expect(auth.searchParams.get('nonce')).toBeTruthy();
  const page = await b.follow(start);
  expect(page.statusCode).toBe(200);
  const action = /action="(\/idp\/interaction\/[^"]+\/login)"/.exec(page.body)?.[1];
  expect(action).toBeTruthy();
  return { page, action: action! };
}

describe('login through the embedded IdP', () => {
  it('shows a Swedish test login page with one button per persona', async () => {
    const { page } = await toLoginPage(new Browser());
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<h1>Testlegitimering</h1>');
    expect(page.body).toContain('Det här är en testinloggning.');
    for (const p of PERSONAS) expect(page.body).toContain(`>${p.button}</button>`);
    expect(page.body).toContain('<label for="pin">Personnummer</label>');
  });

  it('publishes discovery at /idp and answers a stale login page with a Swedish error, not a 500', async () => {
    const b = new Browser();
    const disc = await b.get('/idp/.well-known/openid-configuration');
    expect(disc.statusCode).toBe(200);
    expect(disc.json()).toMatchObject({ issuer: `${ORIGIN}/idp`, code_challenge_methods_supported: ['S256'] });
    for (const [method, url] of [['GET', '/idp/interaction/nope'], ['POST', '/idp/interaction/nope/login']] as const) {
      const res = await b.request(method, url, method === 'POST' ? { persona: 'anna' } : undefined);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Inloggningen misslyckades');
    }
    expect((await b.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it.each([
    ['anna', ['VIDMedarbetare', 'VIDAdmin'], true, 'staff'],
    ['erik', ['VIDMedarbetare'], false, 'staff'],
    ['karin', ['KompletterandeAktör'], false, 'eid'],
    ['fredrik', ['FriståendeAktör'], false, 'eid'],
    ['jonna', ['Participant'], false, 'eid'],
  ] as const)('logs %s in and returns to the asked page with a session', async (key, roles, isAdmin, kind) => {
    const b = new Browser();
    const { action } = await toLoginPage(b, '/meetings/abc/lobby?x=1');
    const back = await b.follow(await b.request('POST', action, { persona: key }), 5).catch(() => null);
    // follow() stops at the first non-redirect: the SPA path itself is served by the web (404 JSON when no build)
    expect(back).not.toBeNull();
    const persona = PERSONAS.find((p) => p.key === key)!;
    const user = await b.get('/api/login/getuserdata');
    expect(user.statusCode).toBe(200);
    const data = user.json().data;
    expect(data).toMatchObject({ ciamGivenName: persona.firstName, ciamFamilyName: persona.lastName, afRole: roles, isAdmin, identityKind: kind });
    expect(data.ciamSub).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    if (persona.pin) expect(data.ciamSub).not.toContain(persona.pin);
    expect(JSON.stringify(data)).not.toMatch(/\d{10}/);
    expect(b.cookies.get('authenticationvariant')).toBe('CIAM');
  });

  it('lands on the return URL after the callback', async () => {
    const b = new Browser();
    const { action } = await toLoginPage(b, '/meetings/abc/lobby?x=1');
    let res = await b.request('POST', action, { persona: 'erik' });
    const seen: string[] = [];
    while (res.statusCode >= 300 && res.statusCode < 400) {
      seen.push(String(res.headers.location));
      res = await b.get(String(res.headers.location));
    }
    expect(seen.some((l) => l.startsWith(`${ORIGIN}/api/login/callback?`))).toBe(true);
    expect(seen.at(-1)).toBe('/meetings/abc/lobby?x=1');
    expect(b.cookies.get('vm_session')).toBeTruthy();
  });

  it('logs in any valid personnummer with a name, and ignores garbage roles', async () => {
    const b = new Browser();
    const { action } = await toLoginPage(b);
    const bad = await b.request('POST', action, { pin: '19900101-2384', name: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Ange ett giltigt personnummer');
    expect(bad.body).toContain('Ange förnamn och efternamn');
    await b.follow(await b.request('POST', action, { pin: '19121212-1212', name: 'Tolvan Tolvansson Test', roles: 'Participant, Hacker,<script>,VIDAdmin;DROP,,KompletterandeAktör' }));
    const data = (await b.get('/api/login/getuserdata')).json().data;
    expect(data).toMatchObject({ ciamGivenName: 'Tolvan Tolvansson', ciamFamilyName: 'Test', identityKind: 'eid' });
    expect(data.afRole).toEqual(['Participant', 'KompletterandeAktör']);
    expect(data.isAdmin).toBe(false);
    expect(data.features).toEqual(['EditMeeting', 'ScreenShare']);
  });

  it('refuses coordination numbers on the IdP form', async () => {
    const b = new Browser();
    const { action } = await toLoginPage(b);
    // 1990-01-61 is a Luhn-valid coordination number for 1990-01-01.
    const candidates = Array.from({ length: 10 }, (_, d) => `19900161238${d}`);
    let coordinationSeen = false;
    for (const pin of candidates) {
      const res = await b.request('POST', action, { pin, name: 'Sam Ordning' });
      if (res.statusCode === 400 && res.body.includes('Samordningsnummer stöds inte')) coordinationSeen = true;
      if (res.statusCode !== 400) break;
    }
    expect(coordinationSeen).toBe(true);
  });

  it('applies the admin\'s Grupper table at login', async () => {
    // reset() empties every table, role_grants too; put back an edited table.
    await t.db.query(
      "INSERT INTO role_grants (role, features, is_admin) VALUES ('VIDAdmin', ARRAY['EditMeeting'], true), ('VIDMedarbetare', ARRAY['EditMeeting'], false)",
    );
    const b = new Browser();
    const { action } = await toLoginPage(b);
    await b.follow(await b.request('POST', action, { persona: 'erik' }));
    expect((await b.get('/api/login/getuserdata')).json().data).toMatchObject({ features: ['EditMeeting'], userLevel: 'Intern', isAdmin: false });
  });

  it('refuses an open redirect in returnUrl', async () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const res = await new Browser().get(`/api/login/start?returnUrl=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ name: 'ValidationError', errors: [{ fields: ['returnUrl'], message: 'Ogiltig returadress' }] });
    }
  });

  it('refuses a callback whose state is not bound to this browser, and a replayed one', async () => {
    const victim = new Browser();
    const { action } = await toLoginPage(victim);
    let res = await victim.request('POST', action, { persona: 'anna' });
    while (!String(res.headers.location).includes('/api/login/callback')) res = await victim.get(String(res.headers.location));
    const callback = String(res.headers.location);
    const attacker = new Browser();
    const planted = await attacker.get(callback);
    expect(planted.headers.location).toBe('/error?status=401');
    expect(attacker.cookies.get('vm_session')).toBeUndefined();
    const ok = await victim.get(callback);
    expect(ok.headers.location).toBe('/meetings');
    victim.cookies.set('vm_login', new URL(callback).searchParams.get('state')!);
    const replay = await victim.get(callback);
    expect(replay.headers.location).toBe('/error?status=401');
  });

  it('cancelling at the IdP ends on the error page without a session', async () => {
    const b = new Browser();
    const { action } = await toLoginPage(b);
    let res = await b.request('POST', action.replace(/\/login$/, '/abort'));
    while (res.statusCode >= 300 && res.statusCode < 400 && !String(res.headers.location).startsWith('/error')) res = await b.get(String(res.headers.location));
    expect(res.headers.location).toBe('/error?status=401');
    expect((await b.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it('logs out by POST with the anti-forgery token, at the IdP too, and ends on the agency home page', async () => {
    const b = new Browser();
    const { action } = await toLoginPage(b);
    await b.follow(await b.request('POST', action, { persona: 'jonna' }));
    expect((await b.get('/api/login/getuserdata')).statusCode).toBe(200);
    // What a database dump and the browser hold while logged in.
    const stored = JSON.stringify(await t.db.query('SELECT * FROM sessions'));
    expect(stored).toContain('idTokenEncrypted');
    // A cross-site link or image cannot log anyone out: no GET route, and a POST needs the anti-forgery pair.
    expect((await b.get('/api/login/logout')).statusCode).toBe(404);
    expect((await b.request('POST', '/api/login/logout', undefined, { headers: {}, body: { data: null } })).statusCode).toBe(403);
    expect((await b.get('/api/login/getuserdata')).statusCode).toBe(200);
    await b.get('/api/getantiforgerydata');
    const logout = await b.request('POST', '/api/login/logout', undefined, { headers: { 'x-xsrf-token': b.cookies.get('XSRF-TOKEN')! }, body: { data: null } });
    expect(logout.json()).toEqual({ data: 'local' });
    expect((await b.get('/api/login/getuserdata')).statusCode).toBe(401);
    const cookiesAfterLogout = JSON.stringify([...b.cookies]);
    const end = await b.get('/api/login/endsession');
    const endUrl = new URL(String(end.headers.location));
    expect(endUrl.pathname).toBe('/idp/session/end');
    const idToken = endUrl.searchParams.get('id_token_hint');
    expect(idToken).toMatch(/^eyJ/);
    // The raw id_token was never in the database nor in a cookie: only an encrypted copy.
    expect(stored).not.toContain(idToken!);
    expect(stored).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
    expect(cookiesAfterLogout).toContain('vm_logout');
    expect(cookiesAfterLogout).not.toContain(idToken!);
    expect(endUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/usersupport`);
    const confirm = await b.get(String(end.headers.location));
    expect(confirm.statusCode).toBe(200);
    const form = /<form[^>]*id="op.logoutForm"[^>]*action="([^"]+)"[\s\S]*?name="xsrf" value="([^"]+)"/.exec(confirm.body);
    expect(form).toBeTruthy();
    const done = await b.request('POST', form![1]!, { xsrf: form![2]!, logout: 'yes' });
    expect(done.statusCode).toBe(303);
    // Booking spec §4: the agency's home page, not a guarded page that leads back to the login.
    expect(done.headers.location).toBe(`${ORIGIN}/usersupport`);
    // The IdP session is gone as well: a new login shows the login page again.
    await toLoginPage(b);
  });

  it('a tampered logout hint is ignored: the provider logout goes on without id_token_hint', async () => {
    const b = new Browser();
    b.cookies.set('vm_logout', 'bm90LW91cnMtYXQtYWxs');
    const end = await b.get('/api/login/endsession');
    const endUrl = new URL(String(end.headers.location));
    expect(endUrl.pathname).toBe('/idp/session/end');
    expect(endUrl.searchParams.get('id_token_hint')).toBeNull();
  });
});

describe('with an external identity provider configured', () => {
  let ext: TestApp;
  beforeAll(async () => {
    // Port 9 on loopback: nothing listens, so discovery fails at once.
    ext = await buildTestApp({ env: { OIDC_ISSUER: 'http://127.0.0.1:9/realm', OIDC_CLIENT_ID: 'videomote', OIDC_CLIENT_SECRET: 's3cret', METRICS_TOKEN: 'm'.repeat(32) } });
  });
  afterAll(async () => ext?.close());

  it('does not mount the test IdP, and sends the browser to the gateway-timeout page while the provider is unreachable', async () => {
    const idp = await ext.app.inject({ method: 'GET', url: '/idp/.well-known/openid-configuration' });
    expect(idp.statusCode).toBe(404);
    const start = await ext.app.inject({ method: 'GET', url: '/api/login/start?returnUrl=/meetings' });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/error?status=504');
  });
});
