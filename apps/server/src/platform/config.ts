import path from 'node:path';

/** Configuration read once from the environment and validated, so a bad value stops the start, not a request. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  janusUrls: string[];
  janusIceEnforce: string | null;
  janusRtpPortRange: string;
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  /** TURN servers (coturn, `use-auth-secret`) for which each participant gets short-lived REST credentials. */
  turnUrls: string[];
  /** coturn's `static-auth-secret`: signs those credentials; never leaves the server. */
  turnSecret: string | null;
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  publicUrl: string;
  sessionMinutes: number;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '');
  const issuer = env.OIDC_ISSUER || '';
  if (issuer && (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET)) {
    throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  const turnUrls = (env.TURN_URLS || '').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = turnUrls.find((u) => !/^turns?:/.test(u));
  if (bad) throw new ConfigError(`TURN_URLS must list turn: or turns: URLs, got "${bad}"`);
  if (turnUrls.length && !env.TURN_SECRET) throw new ConfigError('TURN_URLS needs TURN_SECRET (coturn\'s static-auth-secret)');
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    janusUrls: (env.JANUS_URL || '').split(',').map((s) => s.trim()).filter(Boolean),
    janusIceEnforce: env.JANUS_ICE_ENFORCE || null,
    janusRtpPortRange: env.JANUS_RTP_PORT_RANGE || '20000-20100',
    iceServers: json('ICE_SERVERS', env.ICE_SERVERS, []),
    turnUrls,
    turnSecret: env.TURN_SECRET || null,
    oidc: issuer ? { issuer, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET! } : null,
    publicUrl,
    sessionMinutes: int('SESSION_MINUTES', env.SESSION_MINUTES, 60, 1, 24 * 60),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', env.SESSION_CACHE_SECONDS, 5, 0, 60),
    pinKey: env.PIN_KEY || null,
    releaseVersion: env.RELEASE_VERSION || '0.1.0',
    environment: env.APP_ENVIRONMENT || (issuer ? 'production' : 'local'),
    logLevel: env.LOG_LEVEL || 'info',
    secureCookies: publicUrl.startsWith('https://'),
    retentionIntervalSeconds: int('RETENTION_INTERVAL_SECONDS', env.RETENTION_INTERVAL_SECONDS, 60, 0, 86_400),
    ratingCommentDays: int('RATING_COMMENT_RETENTION_DAYS', env.RATING_COMMENT_RETENTION_DAYS, 90, 1, 3650),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
