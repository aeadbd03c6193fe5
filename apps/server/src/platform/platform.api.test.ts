import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { ownMeetingBody } from '../testing/request-bodies.ts';
import { securityHeaders } from './security-headers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('operations endpoints', () => {
  it('answers /healthz and /readyz with the database checked', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.internal.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.database).toBe(true);
  });

  it('exposes Prometheus metrics with latency by route pattern, not by URL', async () => {
    await t.app.inject('/api/login/getuserdata');
    const text = (await t.app.internal.inject('/metrics')).body;
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toMatch(/route="\/api\/login\/getuserdata"/);
  });

  it('reports the Node.js it runs on, the supported LTS the project brings (not the machine\'s end-of-life Node 20)', async () => {
    const text = (await t.app.internal.inject('/metrics')).body;
    const major = Number(/^nodejs_version_info\{version="v\d+\.\d+\.\d+",major="(\d+)"/m.exec(text)?.[1]);
    expect(major).toBe(Number(process.versions.node.split('.')[0]));
    expect(major).toBeGreaterThanOrEqual(24);
  });

  it('exposes the gauges operators watch: meetings going on, chat sockets, media rooms, connections and publishers', async () => {
    const clocked = await buildTestApp({ clock: testClock('2026-11-20T09:00:00+01:00') });
    try {
      const gauge = async (name: string) => {
        const line = (await clocked.app.internal.inject('/metrics')).body.split('\n').find((l) => l.startsWith(`${name} `));
        return line === undefined ? null : Number(line.split(' ')[1]);
      };
      const erik = await clocked.as('erik');
      for (const [title, start, end] of [
        ['Pågår', '2026-11-20T09:30:00+01:00', '2026-11-20T10:30:00+01:00'],
        ['Senare', '2026-11-20T13:00:00+01:00', '2026-11-20T14:00:00+01:00'],
      ]) expect((await erik.post('/api/meeting', ownMeetingBody(title!, start!, end!))).statusCode).toBe(200);
      expect(await gauge('videomote_meetings_active')).toBe(0);
      clocked.clock.set('2026-11-20T09:45:00+01:00');
      expect(await gauge('videomote_meetings_active')).toBe(1);
      clocked.clock.set('2026-11-20T13:15:00+01:00');
      expect(await gauge('videomote_meetings_active')).toBe(1);
      clocked.clock.set('2026-11-20T14:00:00+01:00');
      expect(await gauge('videomote_meetings_active')).toBe(0);
      // Nothing connected in this test: present and zero, not missing.
      for (const name of ['videomote_chat_sockets', 'videomote_media_rooms', 'videomote_media_connections', 'videomote_media_publishers']) {
        expect(await gauge(name), name).toBe(0);
      }
    } finally {
      await clocked.close();
    }
  });

  it('serves /metrics, /readyz and /api/docs on the internal listener only; /healthz on both (no METRICS_TOKEN: a loopback-only test install)', async () => {
    for (const url of ['/metrics', '/readyz', '/api/docs']) {
      const pub = await t.app.inject(url);
      expect(pub.statusCode, url).toBe(404);
      expect(pub.body, url).not.toMatch(/http_request_duration|database|openapi/);
      expect((await t.app.internal.inject(url)).statusCode, url).toBe(200);
    }
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    expect((await t.app.internal.inject('/healthz')).statusCode).toBe(200);
  });

  it('with METRICS_TOKEN, /metrics and /api/docs answer only the bearer of it; the health checks stay open for the load balancer', async () => {
    const token = 'a'.repeat(16) + 'b'.repeat(16);
    const guarded = await buildTestApp({ env: { METRICS_TOKEN: token } });
    try {
      for (const url of ['/metrics', '/api/docs', '/metrics?x=1']) {
        for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`]) {
          const res = await guarded.app.internal.inject({ url, headers: authorization ? { authorization } : {} });
          expect(res.statusCode, `${url} ${authorization}`).toBe(401);
          expect(res.headers['www-authenticate'], url).toMatch(/^Bearer /);
          expect(res.body, url).not.toMatch(/http_request_duration|openapi/);
        }
        const ok = await guarded.app.internal.inject({ url, headers: { authorization: `Bearer ${token}` } });
        expect(ok.statusCode, url).toBe(200);
        expect(ok.body, url).toMatch(/http_request_duration|openapi/);
      }
      for (const url of ['/healthz', '/readyz']) expect((await guarded.app.internal.inject(url)).statusCode, url).toBe(200);
      // An unknown path is refused before routing: the token guards the whole listener, not a list of routes.
      expect((await guarded.app.internal.inject('/debug')).statusCode).toBe(401);
    } finally {
      await guarded.close();
    }
  });

  it('serves an OpenAPI document of the API', async () => {
    const doc = (await t.app.internal.inject('/api/docs')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/login/getuserdata');
  });
});

describe('client configuration', () => {
  it('tells the web when the embedded test IdP is active (banner on every page), and how long reports are kept', async () => {
    expect((await t.app.inject('/assets/config/config.json')).json()).toMatchObject({ testIdp: true, accessibilityReportDays: 90, videoLayers: { lowKbps: 150, mediumKbps: 450, highKbps: 1200, screenKbps: 1500, screenFps: 10 }, languages: ['sv', 'en', 'ar', 'so', 'ti'] });
    const real = await buildTestApp({ env: { OIDC_ISSUER: 'https://idp.example.se/realm', OIDC_CLIENT_ID: 'videomote', OIDC_CLIENT_SECRET: 's3cret', METRICS_TOKEN: 'm'.repeat(32) } });
    try {
      expect((await real.app.inject('/assets/config/config.json')).json()).toMatchObject({ testIdp: false });
    } finally {
      await real.close();
    }
  });
});

describe('security headers', () => {
  it('sends a CSP without inline scripts and the usual hardening headers', async () => {
    const res = await t.app.inject('/assets/config/config.json');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends them on API answers, refusals and 404s too, and HSTS only where cookies are secure', async () => {
    for (const url of ['/api/meeting/week', '/api/does-not-exist', '/healthz']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['permissions-policy'], url).toContain('camera=(self)');
    }
    expect((await t.app.inject('/healthz')).headers['strict-transport-security']).toBeUndefined();
    expect(securityHeaders('https://video.example.se')['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('lets sockets connect to our own origin only, in its ws:/wss: form', async () => {
    const csp = String((await t.app.inject('/healthz')).headers['content-security-policy']);
    const connect = csp.split(';').find((d) => d.startsWith('connect-src'));
    expect(connect).toBe(`connect-src 'self' ${t.app.deps.config.publicUrl.replace(/^http/, 'ws')}`);
    expect(connect).not.toMatch(/ ws: | wss:|ws:$/);
    const behindTls = securityHeaders('https://video.example.se:8443')['content-security-policy'];
    expect(behindTls!.split(';').find((d) => d.startsWith('connect-src'))).toBe("connect-src 'self' wss://video.example.se:8443");
  });

  it('answers malformed JSON and unknown API paths with a 4xx in the spec shape, never a 500', async () => {
    const client = await t.as('erik');
    const bad = await client.request({ method: 'POST', url: '/api/login/keepalive', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    const missing = await client.get('/api/does-not-exist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ name: 'NotFound', message: 'Hittades inte' });
  });
});

// The web build exists whenever `npm test` runs (it builds first); a bare `vitest` without one has nothing to check.
const built = fs.existsSync(path.resolve(import.meta.dirname, '../../../web/dist/.vite/manifest.json'));

describe('the web app', () => {
  it.skipIf(!built)("names a page's lazy code (the meeting screen's with janus.js) in that page's HTML only, as files that exist", async () => {
    const html = (url: string) => t.app.inject(url).then((r) => r.body);
    const preloads = (body: string) => [...body.matchAll(/<link rel="modulepreload" (?:fetchpriority="low" )?crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
    // A page with no lazy code of its own named: the app's bundle and what it imports.
    const plain = preloads(await html('/admin'));
    const conference = preloads(await html('/meetings/5f0c/conference?vmtest'));
    const extra = conference.filter((f) => !plain.includes(f));
    expect(extra.some((f) => /\/assets\/janus\.es-/.test(f))).toBe(true);
    expect(extra.some((f) => /\/assets\/conference-page-/.test(f))).toBe(true);
    expect(preloads(await html('/meetings/5f0c/conference/publicaccess'))).toEqual(plain);
    const home = preloads(await html('/meetings')).filter((f) => !plain.includes(f));
    expect(home.some((f) => /\/assets\/home-page-/.test(f))).toBe(true);
    expect(home.some((f) => /\/assets\/janus\.es-/.test(f))).toBe(false);
    // The page's own styles too, which Vite's loader would ask for only once the app has run.
    expect(await html('/meetings')).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/meetings-[^"]+\.css">/);
    for (const f of [...extra, ...home]) expect((await t.app.inject(f)).statusCode, f).toBe(200);
  });

  it.skipIf(!built)("runs the app's first module (the early media token) as its one script, which starts the preloaded bundle", async () => {
    const body = (await t.app.inject('/meetings/5f0c/conference')).body;
    const scripts = [...body.matchAll(/<script type="module"(?: fetchpriority="low")?( async)? crossorigin src="([^"]+)"><\/script>/g)].map((m) => [m[2]!, Boolean(m[1])] as const);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![0]).toMatch(/^\/assets\/early-start-[\w-]+\.js$/);
    expect(scripts[0]![1]).toBe(true); // run as soon as it arrives
    const bundle = /<link rel="modulepreload" (?:fetchpriority="low" )?crossorigin href="(\/assets\/index-[\w-]+\.js)" data-videomote-app>/.exec(body)?.[1];
    expect(bundle).toBeTruthy();
    // React and the router, which early-start runs a task before the app's own modules.
    expect(body).toMatch(/<link rel="modulepreload" (?:fetchpriority="low" )?crossorigin href="\/assets\/react-[\w-]+\.js" data-videomote-library>/);
    const early = await t.app.inject(scripts[0]![0]);
    expect(early.statusCode).toBe(200);
    // Small: it only asks for the token and starts the app, and the app's bundle imports the same module rather than a copy.
    expect(early.body.length).toBeLessThan(8_000);
    expect(early.body).toContain('data-videomote-app');
    expect(early.body).toContain('data-videomote-library');
    expect((await t.app.inject(bundle!)).body).toContain(scripts[0]![0].replace('/assets/', './'));
  });

  it.skipIf(!built)("puts a page's first screen into its HTML, in Swedish to those who read Swedish, with the cookie notice until accepted", async () => {
    const root = (body: string) => /<div id="root">(?:<div data-first-screen inert>(.*)<\/div>)?<\/div>\s*<\/body>/s.exec(body)?.[1] ?? '';
    const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers }).then((r) => root(r.body));
    const swedish = { 'accept-language': 'sv-SE,sv;q=0.9,en;q=0.8' };
    const first = await page('/personaldata', swedish);
    expect(first).toContain('<h1>Så här hanterar vi personuppgifter i Videomöte</h1>');
    expect((await t.app.inject({ url: '/personaldata', headers: swedish })).body).toContain('<title>Videomöte - Personuppgifter</title>');
    expect(first).toContain('class="cookie-notice"');
    expect(await page('/personaldata?x=1', { ...swedish, cookie: 'acceptcookies=true' })).not.toContain('class="cookie-notice"');
    // An external screen for an Arabic browser is drawn by the app in Arabic; a staff screen is Swedish for everyone.
    expect(await page('/personaldata', { 'accept-language': 'ar-SE,sv;q=0.5' })).toBe('');
    expect(await page('/meetings', { 'accept-language': 'ar-SE' })).toContain('class="app-header"');
    expect(await page('/publicaccess/abc', swedish)).toContain('Hämtar mötet...');
    // The meeting screen: the app's loading spinner until the call's receiving connection is answered, its scripts at
    // the priority they had.
    const meeting = await t.app.inject({ url: '/meetings/5f0c/conference', headers: swedish });
    expect(root(meeting.body)).toMatch(/^<div class="spinner" role="status"[^>]*>.*Laddar Videomöte\.\.\.<\/span><\/div>$/);
    expect(meeting.body).not.toContain('fetchpriority="low"');
    // Shown whatever the browser reads: nothing in it is visible text.
    expect(await page('/meetings/5f0c/conference', { 'accept-language': 'ar-SE' })).toBe(root(meeting.body));
    // A page without one: the app draws it.
    expect(await page('/admin', swedish)).toBe('');
    expect((await t.app.inject('/personaldata')).headers.vary).toMatch(/accept-language/i);
  });

  it.skipIf(!built)('carries the client configuration in every page, the same as config.json', async () => {
    const config = (await t.app.inject('/assets/config/config.json')).json();
    for (const url of ['/', '/meetings', '/meetings/5f0c/conference', '/publicaccess/x']) {
      const block = (await t.app.inject(url)).body.match(/<script type="application\/json" id="client-config">(.*?)<\/script>/);
      expect(block, url).not.toBeNull();
      expect(JSON.parse(block![1]!), url).toEqual(config);
    }
  });
});
