import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from './config.ts';

// A real identity provider makes it production, which needs METRICS_TOKEN (tested on its own below).
const METRICS = { METRICS_TOKEN: 'm'.repeat(32) };
const OIDC = { OIDC_CLIENT_ID: 'videomote', OIDC_CLIENT_SECRET: 's3cret', ...METRICS };
const JANUS_SECRETS = { JANUS_TOKEN_SECRET: 'token-secret', JANUS_ADMIN_KEY: 'admin-key' };

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return null;
};

describe('unsafe configurations are refused at start', () => {
  it('the embedded test IdP behind an https PUBLIC_URL, unless ALLOW_TEST_IDP=1 says it is a test system', () => {
    expect(refusal({ PUBLIC_URL: 'https://video.example.se' })).toMatch(/OIDC_ISSUER is not set.*ALLOW_TEST_IDP=1/);
    expect(refusal({ PUBLIC_URL: 'https://video.example.se', ALLOW_TEST_IDP: 'yes' })).not.toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://video.example.se', ALLOW_TEST_IDP: '1' }).testIdp).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).testIdp).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://video.example.se', OIDC_ISSUER: 'https://idp.example.se', ...OIDC }).testIdp).toBe(false);
  });

  it('an http:// identity provider that is not on loopback', () => {
    expect(refusal({ OIDC_ISSUER: 'http://idp.example.se/realm', ...OIDC })).toMatch(/OIDC_ISSUER must use https:\/\//);
    expect(refusal({ OIDC_ISSUER: 'http://127.0.0.1:8080/realm', ...OIDC })).toBeNull();
    expect(refusal({ OIDC_ISSUER: 'http://localhost:8080/realm', ...OIDC })).toBeNull();
    expect(refusal({ OIDC_ISSUER: 'https://idp.example.se/realm', ...OIDC })).toBeNull();
    expect(refusal({ OIDC_ISSUER: 'not a url', ...OIDC })).toMatch(/OIDC_ISSUER must be a URL/);
  });

  it('a Janus elsewhere without its secrets or reached in clear text', () => {
    expect(refusal({ JANUS_URL: 'wss://janus.example.se:8989' })).toMatch(/needs JANUS_TOKEN_SECRET and JANUS_ADMIN_KEY/);
    expect(refusal({ JANUS_URL: 'wss://janus.example.se:8989', JANUS_TOKEN_SECRET: 'x' })).toMatch(/needs JANUS_TOKEN_SECRET and JANUS_ADMIN_KEY/);
    expect(refusal({ JANUS_URL: 'ws://janus.example.se:8188', ...JANUS_SECRETS })).toMatch(/must use wss:\/\//);
    // One bad instance in the list is enough.
    expect(refusal({ JANUS_URL: 'ws://127.0.0.1:8188, ws://10.0.0.5:8188', ...JANUS_SECRETS })).toMatch(/ws:\/\/10\.0\.0\.5:8188/);
    expect(refusal({ JANUS_URL: 'http://janus.example.se' })).toMatch(/must be ws:\/\/ or wss:\/\//);
    expect(refusal({ JANUS_URL: 'wss://janus.example.se:8989', ...JANUS_SECRETS })).toBeNull();
    // Loopback: nothing crosses a network.
    expect(refusal({ JANUS_URL: 'ws://127.0.0.1:8188,ws://127.0.0.3:8188,ws://[::1]:8188' })).toBeNull();
  });

  it('knows loopback', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['10.0.0.1', '128.0.0.1', 'localhost.example.se', '127.0.0.1.example.se', '::2']) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('METRICS_TOKEN, the bearer token of /metrics and /api/docs', () => {
  it('is required when the internal listener is reachable from other machines, and in production', () => {
    expect(refusal({ INTERNAL_HOST: '10.1.2.3' })).toMatch(/INTERNAL_HOST "10.1.2.3" is reachable from other machines: set METRICS_TOKEN/);
    expect(refusal({ INTERNAL_HOST: '0.0.0.0' })).toMatch(/set METRICS_TOKEN/);
    expect(refusal({ APP_ENVIRONMENT: 'production' })).toMatch(/METRICS_TOKEN is required in production/);
    expect(refusal({ OIDC_ISSUER: 'https://idp.example.se/realm', OIDC_CLIENT_ID: 'videomote', OIDC_CLIENT_SECRET: 's3cret' })).toMatch(/METRICS_TOKEN is required in production/);
    expect(loadConfig({ INTERNAL_HOST: '10.1.2.3', ...METRICS }).metricsToken).toBe(METRICS.METRICS_TOKEN);
  });

  it('may be left out on a loopback-only install that is not production; a short or spaced token is refused', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ INTERNAL_HOST: '127.0.0.2' }).metricsToken).toBeNull();
    expect(refusal({ METRICS_TOKEN: 'kort' })).toMatch(/METRICS_TOKEN must be at least 32 characters/);
    expect(refusal({ METRICS_TOKEN: `${'m'.repeat(20)} ${'m'.repeat(20)}` })).toMatch(/without spaces/);
  });
});

describe('PostgreSQL and Redis on another machine only over checked TLS', () => {
  const SECRET = { CLUSTER_SECRET: 'c'.repeat(32) };
  it('PostgreSQL: sslmode=verify-full, or require/verify-ca with a written reason; loopback and socket paths exempt', () => {
    for (const bad of ['postgres://vm@db.internal:5432/vm', 'postgres://vm@db.internal/vm?sslmode=disable', 'postgres://vm@db.internal/vm?sslmode=prefer', 'postgres://vm@10.0.1.5/vm?sslmode=require']) {
      expect(refusal({ DATABASE_URL: bad }), bad).toMatch(/without a checked TLS connection: add sslmode=verify-full/);
    }
    expect(refusal({ DATABASE_URL: 'postgres://vm@db.internal/vm?sslmode=verify-full' })).toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres://vm@db.internal/vm?sslmode=verify-full&sslrootcert=/etc/videomote/tls/ca.pem' })).toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres://vm@db.internal/vm?sslmode=require', DATABASE_TLS_UNVERIFIED_REASON: 'managed database, CA not published' })).toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres://vm@db.internal/vm?sslmode=disable', DATABASE_TLS_UNVERIFIED_REASON: 'no reason is enough for clear text' })).not.toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' })).toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres://vm@localhost/vm' })).toBeNull();
    expect(refusal({ DATABASE_URL: 'postgres:///vm?host=/var/run/postgresql' })).toBeNull();
    // Never the URL (it may hold the password) in the message.
    expect(refusal({ DATABASE_URL: 'postgres://vm:hemligt@db.internal/vm' })).not.toMatch(/hemligt/);
    // A host parameter names the real host: it is judged, not the URL's.
    expect(refusal({ DATABASE_URL: 'postgres://vm@localhost/vm?host=db.internal' })).toMatch(/db.internal/);
  });

  it('Redis: rediss:// off loopback, as a ws:// Janus is refused', () => {
    expect(refusal({ REDIS_URL: 'redis://redis.internal:6379', ...SECRET })).toMatch(/REDIS_URL must use rediss:\/\//);
    expect(refusal({ REDIS_URL: 'redis://:losen@10.0.1.20:6379', ...SECRET })).not.toMatch(/losen/);
    expect(refusal({ REDIS_URL: 'rediss://redis.internal:6380', ...SECRET })).toBeNull();
    expect(refusal({ REDIS_URL: 'redis://127.0.0.1:6379' })).toBeNull();
  });
});

describe('TLS_CERT_FILE and TLS_KEY_FILE, the listeners\' own TLS', () => {
  it('are required in production when a listener is reachable from other machines; both or neither', () => {
    const production = { APP_ENVIRONMENT: 'production', ...METRICS };
    expect(refusal({ ...production, HOST: '10.0.1.11' })).toMatch(/HOST\/INTERNAL_HOST "10.0.1.11" is reachable from other machines: set TLS_CERT_FILE and TLS_KEY_FILE/);
    expect(refusal({ ...production, INTERNAL_HOST: '10.0.1.11' })).toMatch(/set TLS_CERT_FILE/);
    expect(loadConfig({ ...production, HOST: '10.0.1.11', TLS_CERT_FILE: '/etc/videomote/tls/node.pem', TLS_KEY_FILE: '/etc/videomote/tls/node.key' }).tls).toEqual({
      certFile: '/etc/videomote/tls/node.pem',
      keyFile: '/etc/videomote/tls/node.key',
    });
    expect(loadConfig({ ...production }).tls).toBeNull();
    expect(loadConfig({ HOST: '0.0.0.0' }).tls).toBeNull();
    expect(refusal({ TLS_CERT_FILE: '/etc/videomote/tls/node.pem' })).toMatch(/TLS_CERT_FILE and TLS_KEY_FILE go together/);
    expect(refusal({ TLS_KEY_FILE: '/etc/videomote/tls/node.key' })).toMatch(/go together/);
  });
});

describe('CLUSTER_SECRET, the key of the messages between the nodes', () => {
  const SECRET = { CLUSTER_SECRET: 'c'.repeat(32) };
  it('is required when Redis is on another machine, may be left out on loopback, and is not short', () => {
    expect(refusal({ REDIS_URL: 'rediss://redis.internal:6380' })).toMatch(/REDIS_URL is on another machine: set CLUSTER_SECRET/);
    expect(loadConfig({ REDIS_URL: 'rediss://redis.internal:6380', ...SECRET }).clusterSecret).toBe(SECRET.CLUSTER_SECRET);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).clusterSecret).toBeNull();
    expect(refusal({ CLUSTER_SECRET: 'kort' })).toMatch(/CLUSTER_SECRET must be at least 32 characters/);
  });
});

describe('new settings and their defaults', () => {
  it('internal listener on 127.0.0.1 and PORT + 1 unless set', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({ internalHost: '127.0.0.1', internalPort: 8081 });
    expect(loadConfig({ PORT: '0' }).internalPort).toBe(0);
    expect(loadConfig({ PORT: '8080', INTERNAL_HOST: '10.1.2.3', INTERNAL_PORT: '9100', ...METRICS })).toMatchObject({ internalHost: '10.1.2.3', internalPort: 9100 });
    expect(refusal({ INTERNAL_PORT: '70000' })).toMatch(/INTERNAL_PORT/);
  });

  it('absolute session lifetime 12 hours, retention of accessibility reports 90 days, agency home', () => {
    const c = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' });
    expect(c).toMatchObject({ sessionMaxHours: 12, accessibilityReportDays: 90, agencyHomeUrl: 'http://127.0.0.1:3000/usersupport' });
    expect(loadConfig({ SESSION_MAX_HOURS: '8', ACCESSIBILITY_REPORT_RETENTION_DAYS: '30', AGENCY_HOME_URL: 'https://arbetsformedlingen.se/' })).toMatchObject({
      sessionMaxHours: 8,
      accessibilityReportDays: 30,
      agencyHomeUrl: 'https://arbetsformedlingen.se/',
    });
    expect(refusal({ SESSION_MAX_HOURS: '0' })).toMatch(/SESSION_MAX_HOURS/);
  });
});

describe('simulcast layers', () => {
  it('have defaults, take the operator\'s caps, and refuse a ladder that does not climb', () => {
    expect(loadConfig({}).videoLayers).toEqual({ lowKbps: 150, mediumKbps: 450, highKbps: 1200, screenKbps: 1500, screenFps: 10 });
    expect(loadConfig({ SIMULCAST_HIGH_KBPS: '2500', SCREEN_SHARE_FPS: '5' }).videoLayers).toMatchObject({ highKbps: 2500, screenFps: 5 });
    expect(refusal({ SIMULCAST_MEDIUM_KBPS: '1500' })).toMatch(/SIMULCAST_LOW_KBPS < SIMULCAST_MEDIUM_KBPS < SIMULCAST_HIGH_KBPS/);
    expect(refusal({ SCREEN_SHARE_FPS: '0' })).not.toBeNull();
  });
});

describe('WEB_LANGUAGES', () => {
  it('offers every language by default, and what the operator lists (Swedish always, first)', () => {
    expect(loadConfig({}).webLanguages).toEqual(['sv', 'en', 'ar', 'so', 'ti']);
    expect(loadConfig({ WEB_LANGUAGES: 'en, AR' }).webLanguages).toEqual(['sv', 'en', 'ar']);
    expect(loadConfig({ WEB_LANGUAGES: 'sv' }).webLanguages).toEqual(['sv']);
  });
  it('refuses a language we have no catalogue for', () => {
    expect(refusal({ WEB_LANGUAGES: 'en,fa' })).toMatch(/WEB_LANGUAGES must list language codes out of sv, en, ar, so, ti/);
  });
});
