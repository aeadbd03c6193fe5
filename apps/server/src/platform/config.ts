import path from 'node:path';

/** Configuration read once from the environment and validated, so a bad value stops the start, not a request. */
export interface Config {
  port: number;
  host: string;
  /**
   * The internal listener for /metrics, /readyz and /api/docs (operators and Prometheus, never the public):
   * INTERNAL_HOST (default 127.0.0.1) and INTERNAL_PORT (default PORT + 1; 0 picks a free one).
   */
  internalHost: string;
  internalPort: number;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  janusUrls: string[];
  janusIceEnforce: string | null;
  janusRtpPortRange: string;
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /** The embedded test IdP logs people in (no OIDC_ISSUER): the web shows a banner on every page. */
  testIdp: boolean;
  publicUrl: string;
  /** Where the browser ends after a manual logout (booking spec §4: the agency's home page). */
  agencyHomeUrl: string;
  sessionMinutes: number;
  /** Absolute session lifetime (ASVS V7.3.2): no keep-alive slides a session past this many hours after login. */
  sessionMaxHours: number;
  /** How long a node reuses a session it has read before reading it again; a logout on another node waits this long. */
  sessionCacheSeconds: number;
  pinKey: string | null;
  releaseVersion: string;
  environment: string;
  logLevel: string;
  secureCookies: boolean;
  /** How often the GDPR retention job runs; 0 turns the schedule off. */
  retentionIntervalSeconds: number;
  /** Days a call rating's free-text comment is kept (it may hold personal data); the rating itself stays. */
  ratingCommentDays: number;
  /** Days an accessibility report (free text and maybe a contact) is kept before the retention job deletes it. */
  accessibilityReportDays: number;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify `trustProxy`): by default only one on loopback, in front of
   * HOST=127.0.0.1. Believing everyone would let any client pick its own address and escape the rate limits.
   */
  trustProxy: boolean | string;
}

export class ConfigError extends Error {}

/** TRUST_PROXY: `true`/`false`, or addresses/CIDRs/`loopback` (comma-separated); default `loopback`. */
function trustProxy(value: string | undefined): boolean | string {
  const v = (value ?? '').trim();
  if (!v) return 'loopback';
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${value}"`);
  return n;
}

function json<T>(name: string, value: string | undefined, fallback: T): T {
  if (!value) return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw new ConfigError(`${name} must be JSON`);
  }
}

function url(name: string, value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Configurations that would work but leak or trust too much are refused at start with a message that says what
 * to change, instead of running quietly: the test IdP (anyone logs in as anyone) on a real https address, a
 * Janus without its secrets or reached in clear text, an identity provider reached in clear text. Targets on
 * loopback are exempt: nothing crosses a network there.
 */
function refuseUnsafe(env: NodeJS.ProcessEnv, publicUrl: string, issuer: string, janusUrls: string[]): void {
  if (!issuer && publicUrl.startsWith('https://') && env.ALLOW_TEST_IDP !== '1') {
    throw new ConfigError(
      'OIDC_ISSUER is not set, so the embedded test IdP would let anyone log in as anyone on ' +
        `${publicUrl}. Configure OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or set ALLOW_TEST_IDP=1 if this is a test system.`,
    );
  }
  if (issuer) {
    const u = url('OIDC_ISSUER', issuer);
    if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
      throw new ConfigError(`OIDC_ISSUER must use https:// (tokens and the client secret would cross the network in clear text): "${issuer}"`);
    }
  }
  for (const janus of janusUrls) {
    const u = url('JANUS_URL', janus);
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new ConfigError(`JANUS_URL must be ws:// or wss://, got "${janus}"`);
    if (isLoopbackHost(u.hostname)) continue;
    if (u.protocol === 'ws:') {
      throw new ConfigError(`JANUS_URL must use wss:// for a Janus that is not on loopback (its secrets would cross the network in clear text): "${janus}"`);
    }
    if (!env.JANUS_TOKEN_SECRET || !env.JANUS_ADMIN_KEY) {
      throw new ConfigError(
        `JANUS_URL "${janus}" needs JANUS_TOKEN_SECRET and JANUS_ADMIN_KEY: without them anyone who reaches that Janus can create and join rooms`,
      );
    }
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '');
  const issuer = env.OIDC_ISSUER || '';
  if (issuer && (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET)) {
    throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  const janusUrls = (env.JANUS_URL || '').split(',').map((s) => s.trim()).filter(Boolean);
  refuseUnsafe(env, publicUrl, issuer, janusUrls);
  const agencyHomeUrl = env.AGENCY_HOME_URL || `${publicUrl}/usersupport`;
  url('AGENCY_HOME_URL', agencyHomeUrl);
  return {
    port,
    host,
    internalHost: env.INTERNAL_HOST || '127.0.0.1',
    internalPort: int('INTERNAL_PORT', env.INTERNAL_PORT, port === 0 ? 0 : Math.min(port + 1, 65535), 0, 65535),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    janusUrls,
    janusIceEnforce: env.JANUS_ICE_ENFORCE || null,
    janusRtpPortRange: env.JANUS_RTP_PORT_RANGE || '20000-20100',
    iceServers: json('ICE_SERVERS', env.ICE_SERVERS, []),
    oidc: issuer ? { issuer, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET! } : null,
    testIdp: !issuer,
    publicUrl,
    agencyHomeUrl,
    sessionMinutes: int('SESSION_MINUTES', env.SESSION_MINUTES, 60, 1, 24 * 60),
    sessionMaxHours: int('SESSION_MAX_HOURS', env.SESSION_MAX_HOURS, 12, 1, 7 * 24),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', env.SESSION_CACHE_SECONDS, 5, 0, 60),
    pinKey: env.PIN_KEY || null,
    releaseVersion: env.RELEASE_VERSION || '0.1.0',
    environment: env.APP_ENVIRONMENT || (issuer ? 'production' : 'local'),
    logLevel: env.LOG_LEVEL || 'info',
    secureCookies: publicUrl.startsWith('https://'),
    retentionIntervalSeconds: int('RETENTION_INTERVAL_SECONDS', env.RETENTION_INTERVAL_SECONDS, 60, 0, 86_400),
    ratingCommentDays: int('RATING_COMMENT_RETENTION_DAYS', env.RATING_COMMENT_RETENTION_DAYS, 90, 1, 3650),
    accessibilityReportDays: int('ACCESSIBILITY_REPORT_RETENTION_DAYS', env.ACCESSIBILITY_REPORT_RETENTION_DAYS, 90, 1, 3650),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
