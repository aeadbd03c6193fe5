import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('operations endpoints', () => {
  it('answers /healthz and /readyz with the database checked', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.database).toBe(true);
  });

  it('exposes Prometheus metrics with latency by route pattern, not by URL', async () => {
    await t.app.inject('/api/login/getuserdata');
    const text = (await t.app.inject('/metrics')).body;
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toMatch(/route="\/api\/login\/getuserdata"/);
  });

  it('serves an OpenAPI document of the API', async () => {
    const doc = (await t.app.inject('/api/docs')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/login/getuserdata');
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
