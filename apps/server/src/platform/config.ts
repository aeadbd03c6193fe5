// Long on purpose: one reading of the environment. Every variable is parsed, defaulted and checked here in one
// pass, so a bad value stops the start and docs/configuration.md is matched against one file (config-docs.test.ts).
import path from 'node:path';
import { parse as parsePostgresUrl } from 'pg-connection-string';
import type { VideoLayers } from '@videomote/contract/identity';
import { DEFAULT_MEDIA_HOLD_CAPS, type HoldResource, type HoldScope, type MediaHoldCaps } from './media-holds.ts';
import { DEFAULT_MEDIA_LIMITS, DEFAULT_RTP_PORT_RANGE, portsIn, type MediaLimits } from './media-capacity.ts';
import { LANGUAGE_CODES, parseOfferedLanguages, type LanguageCode } from '@videomote/contract/languages';

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
  /**
   * METRICS_TOKEN: the bearer token /metrics and /api/docs on the internal listener ask for. Required when that
   * listener is reachable from other machines (INTERNAL_HOST not loopback) and in production; without it (a
   * loopback-only development or test install) they answer everyone on this machine.
   */
  metricsToken: string | null;
  /**
   * TLS_CERT_FILE and TLS_KEY_FILE (PEM): both listeners (PORT and INTERNAL_PORT) serve HTTPS, so what the proxy
   * passes on (session cookies, the media key of gettoken) and the metrics never cross the private network in
   * clear text. Required in production when a listener is off loopback.
   */
  tls: { certFile: string; keyFile: string } | null;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /**
   * CLUSTER_SECRET: the key the nodes sign their messages through Redis with (cluster-bus.ts). Required when Redis
   * is on another machine; on loopback, when unset, the key is derived from the PIN key all nodes share.
   */
  clusterSecret: string | null;
  janusUrls: string[];
  janusIceEnforce: string | null;
  janusRtpPortRange: string;
  /** PeerConnections one participant, one meeting and one webcast may hold on Janus (each takes one RTP port). */
  mediaLimits: MediaLimits;
  /** Sockets, Janus handles and PeerConnections one person, session and client address may hold, across meetings and nodes. */
  mediaHoldCaps: MediaHoldCaps;
  /** How often `/media` sockets are pinged; one missing pong drops the socket. */
  mediaHeartbeatSeconds: number;
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  /** TURN servers (coturn, `use-auth-secret`) for which each participant gets short-lived REST credentials. */
  turnUrls: string[];
  /** coturn's `static-auth-secret`: signs those credentials; never leaves the server. */
  turnSecret: string | null;
  /** How long a call's TURN credentials last (renewed on the `/media` socket): TURN_CREDENTIAL_TTL_SECONDS. */
  turnTtlMs: number;
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
  /** The agency's staff directory (Active Directory over LDAP); null keeps the embedded list. */
  ldap: LdapConfig | null;
  /** Per-layer bit-rate caps of the simulcast the browsers send, handed to the web in config.json. */
  videoLayers: VideoLayers;
  /** WEB_LANGUAGES: the languages the external screens and invitations offer, Swedish first (always there). */
  webLanguages: LanguageCode[];
}

/**
 * Defaults: about what Chromium's own simulcast ladder gives 320x180, 640x360 and 1280x720 VP8, a little lower at
 * the top so that one camera fits a 2 Mbit/s uplink with audio; the screen share at 1.5 Mbit/s and 10 frames/s
 * keeps text sharp rather than motion smooth.
 */
export const DEFAULT_VIDEO_LAYERS: VideoLayers = { lowKbps: 150, mediumKbps: 450, highKbps: 1_200, screenKbps: 1_500, screenFps: 10 };

export class ConfigError extends Error {}

/** TRUST_PROXY: `true`/`false`, or addresses/CIDRs/`loopback` (comma-separated); default `loopback`. */
function trustProxy(value: string | undefined): boolean | string {
  const v = (value ?? '').trim();
  if (!v) return 'loopback';
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

/** The caps of media-holds.ts, one variable each (named in full so that docs/configuration.md's test finds them). */
const HOLD_CAP_VARIABLES: Record<HoldResource, Record<HoldScope, string>> = {
  sockets: { person: 'MEDIA_MAX_SOCKETS_PER_PERSON', session: 'MEDIA_MAX_SOCKETS_PER_SESSION', address: 'MEDIA_MAX_SOCKETS_PER_ADDRESS' },
  handles: { person: 'MEDIA_MAX_HANDLES_PER_PERSON', session: 'MEDIA_MAX_HANDLES_PER_SESSION', address: 'MEDIA_MAX_HANDLES_PER_ADDRESS' },
  peerConnections: {
    person: 'MEDIA_MAX_PEER_CONNECTIONS_PER_PERSON',
    session: 'MEDIA_MAX_PEER_CONNECTIONS_PER_SESSION',
    address: 'MEDIA_MAX_PEER_CONNECTIONS_PER_ADDRESS',
  },
};

function holdCaps(env: NodeJS.ProcessEnv): MediaHoldCaps {
  const caps = {} as MediaHoldCaps;
  for (const resource of Object.keys(HOLD_CAP_VARIABLES) as HoldResource[]) {
    const d = DEFAULT_MEDIA_HOLD_CAPS[resource];
    const read = (scope: HoldScope) => {
      const name = HOLD_CAP_VARIABLES[resource][scope];
      return int(name, env[name], d[scope], 1, 100_000);
    };
    caps[resource] = { person: read('person'), session: read('session'), address: read('address') };
  }
  return caps;
}

/** How long a call's TURN credentials last by default (modules/media/turn-credentials.ts). */
export const DEFAULT_TURN_TTL_SECONDS = 2 * 3600;

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${value}"`);
  return n;
}

/** WEB_LANGUAGES: an operator switches a language off by leaving it out; a code we do not have stops the start. */
function webLanguages(value: string | undefined): LanguageCode[] {
  const parsed = parseOfferedLanguages(value);
  if (!parsed) throw new ConfigError(`WEB_LANGUAGES must list language codes out of ${LANGUAGE_CODES.join(', ')}, got "${value}"`);
  return parsed;
}

function rtpPortRange(value: string | undefined): string {
  if (!value) return DEFAULT_RTP_PORT_RANGE;
  if (!portsIn(value)) throw new ConfigError(`JANUS_RTP_PORT_RANGE must be two ports like 20000-20999, got "${value}"`);
  return value.trim();
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

/** Shortest METRICS_TOKEN accepted: a token guessed or brute-forced over the private network protects nothing. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

/**
 * METRICS_TOKEN (see Config.metricsToken). Open internal endpoints are fine only where no other machine can reach
 * them and nobody runs it as production; everywhere else the token is required.
 */
function metricsToken(env: NodeJS.ProcessEnv, internalHost: string, environment: string): string | null {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token && (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token))) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces (e.g. openssl rand -hex 32)`);
  }
  if (!token && !isLoopbackHost(internalHost)) {
    throw new ConfigError(
      `INTERNAL_HOST "${internalHost}" is reachable from other machines: set METRICS_TOKEN, the bearer token /metrics and /api/docs ask for`,
    );
  }
  if (!token && environment === 'production') throw new ConfigError('METRICS_TOKEN is required in production (the bearer token for /metrics and /api/docs)');
  return token;
}

/**
 * PostgreSQL and Redis on another machine only over TLS with the server's certificate checked: bookings,
 * personnummer ciphertexts, sessions and the cluster's messages would otherwise cross the network readable and
 * alterable. PostgreSQL: `sslmode=verify-full`; a TLS that does not check the name (`require`, `verify-ca`) only with
 * a written reason in DATABASE_TLS_UNVERIFIED_REASON (logged at start). Redis: `rediss://`. A socket path or
 * loopback is exempt: nothing crosses a network there.
 */
export function refuseCleartextStores(env: NodeJS.ProcessEnv): void {
  // The URLs hold passwords: a refusal names the host, never the URL.
  const parse = (name: string, value: string) => {
    try {
      return new URL(value);
    } catch {
      throw new ConfigError(`${name} must be a URL (postgres://… or redis://…)`);
    }
  };
  if (env.DATABASE_URL) {
    // Read as node-postgres reads it (libpq forms such as postgres://user@/db?host=/run/postgresql included).
    // Without the certificate files, which the parser would read (they are for the connection, not this check).
    const { host, sslmode } = parsePostgresUrl(env.DATABASE_URL.replace(/([?&])(sslrootcert|sslcert|sslkey)=[^&]*/g, '$1'));
    if (host && !host.startsWith('/') && !isLoopbackHost(host)) {
      const reason = env.DATABASE_TLS_UNVERIFIED_REASON?.trim();
      if (sslmode !== 'verify-full' && !((sslmode === 'require' || sslmode === 'verify-ca') && reason)) {
        throw new ConfigError(
          `DATABASE_URL reaches PostgreSQL on ${host} without a checked TLS connection: add sslmode=verify-full (with sslrootcert=<CA file> ` +
            'for a private CA), or sslmode=require with the reason written in DATABASE_TLS_UNVERIFIED_REASON',
        );
      }
    }
  }
  if (env.REDIS_URL) {
    const u = parse('REDIS_URL', env.REDIS_URL);
    if (u.hostname && !isLoopbackHost(u.hostname) && u.protocol !== 'rediss:') {
      throw new ConfigError(`REDIS_URL must use rediss:// (TLS) for a Redis that is not on loopback (sessions and the cluster's messages would cross the network in clear text): "${u.protocol}//${u.host}"`);
    }
  }
}

/** TLS_CERT_FILE/TLS_KEY_FILE (see Config.tls): both or neither; the files are read when the server starts. */
function tlsFiles(env: NodeJS.ProcessEnv, listeners: string[], environment: string): { certFile: string; keyFile: string } | null {
  const certFile = env.TLS_CERT_FILE?.trim();
  const keyFile = env.TLS_KEY_FILE?.trim();
  if (!!certFile !== !!keyFile) throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE go together: set both, or neither');
  if (certFile && keyFile) return { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
  const exposed = listeners.find((h) => !isLoopbackHost(h));
  if (exposed && environment === 'production') {
    throw new ConfigError(
      `HOST/INTERNAL_HOST "${exposed}" is reachable from other machines: set TLS_CERT_FILE and TLS_KEY_FILE, so the proxy reaches the node over TLS (session cookies and media keys would cross the network in clear text)`,
    );
  }
  return null;
}

/** Shortest CLUSTER_SECRET accepted (e.g. openssl rand -base64 32 gives 44). */
export const CLUSTER_SECRET_MIN_LENGTH = 32;

/** CLUSTER_SECRET (see Config.clusterSecret). */
function clusterSecret(env: NodeJS.ProcessEnv): string | null {
  const secret = env.CLUSTER_SECRET?.trim() || null;
  if (secret && secret.length < CLUSTER_SECRET_MIN_LENGTH) throw new ConfigError(`CLUSTER_SECRET must be at least ${CLUSTER_SECRET_MIN_LENGTH} characters (e.g. openssl rand -base64 32)`);
  if (!secret && env.REDIS_URL && !isLoopbackHost(URL.parse(env.REDIS_URL)?.hostname ?? '')) {
    throw new ConfigError('REDIS_URL is on another machine: set CLUSTER_SECRET (the same on every node), which signs the messages the nodes send each other through Redis');
  }
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const internalHost = env.INTERNAL_HOST || '127.0.0.1';
  const environment = env.APP_ENVIRONMENT || (env.OIDC_ISSUER ? 'production' : 'local');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '');
  const issuer = env.OIDC_ISSUER || '';
  if (issuer && (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET)) {
    throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  const janusUrls = (env.JANUS_URL || '').split(',').map((s) => s.trim()).filter(Boolean);
  refuseUnsafe(env, publicUrl, issuer, janusUrls);
  refuseCleartextStores(env);
  const agencyHomeUrl = env.AGENCY_HOME_URL || `${publicUrl}/usersupport`;
  url('AGENCY_HOME_URL', agencyHomeUrl);
  const turnUrls = (env.TURN_URLS || '').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = turnUrls.find((u) => !/^turns?:/.test(u));
  if (bad) throw new ConfigError(`TURN_URLS must list turn: or turns: URLs, got "${bad}"`);
  if (turnUrls.length && !env.TURN_SECRET) throw new ConfigError('TURN_URLS needs TURN_SECRET (coturn\'s static-auth-secret)');
  return {
    port,
    host,
    internalHost,
    metricsToken: metricsToken(env, internalHost, environment),
    tls: tlsFiles(env, [host, internalHost], environment),
    internalPort: int('INTERNAL_PORT', env.INTERNAL_PORT, port === 0 ? 0 : Math.min(port + 1, 65535), 0, 65535),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    clusterSecret: clusterSecret(env),
    janusUrls,
    janusIceEnforce: env.JANUS_ICE_ENFORCE || null,
    janusRtpPortRange: rtpPortRange(env.JANUS_RTP_PORT_RANGE),
    mediaLimits: {
      perParticipant: int('MEDIA_PARTICIPANT_PEER_CONNECTIONS', env.MEDIA_PARTICIPANT_PEER_CONNECTIONS, DEFAULT_MEDIA_LIMITS.perParticipant, 1, 1000),
      perMeeting: int('MEDIA_MEETING_PEER_CONNECTIONS', env.MEDIA_MEETING_PEER_CONNECTIONS, DEFAULT_MEDIA_LIMITS.perMeeting, 1, 60_000),
      perWebcast: int('MEDIA_WEBCAST_PEER_CONNECTIONS', env.MEDIA_WEBCAST_PEER_CONNECTIONS, DEFAULT_MEDIA_LIMITS.perWebcast, 1, 60_000),
    },
    mediaHoldCaps: holdCaps(env),
    mediaHeartbeatSeconds: int('MEDIA_HEARTBEAT_SECONDS', env.MEDIA_HEARTBEAT_SECONDS, 30, 1, 3600),
    iceServers: json('ICE_SERVERS', env.ICE_SERVERS, []),
    turnUrls,
    turnSecret: env.TURN_SECRET || null,
    // At most four hours (turn-credentials.ts); shorter only for tests that watch a renewal happen.
    turnTtlMs: int('TURN_CREDENTIAL_TTL_SECONDS', env.TURN_CREDENTIAL_TTL_SECONDS, DEFAULT_TURN_TTL_SECONDS, 20, 4 * 3600) * 1000,
    oidc: issuer ? { issuer, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET! } : null,
    testIdp: !issuer,
    publicUrl,
    agencyHomeUrl,
    sessionMinutes: int('SESSION_MINUTES', env.SESSION_MINUTES, 60, 1, 24 * 60),
    sessionMaxHours: int('SESSION_MAX_HOURS', env.SESSION_MAX_HOURS, 12, 1, 7 * 24),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', env.SESSION_CACHE_SECONDS, 5, 0, 60),
    pinKey: env.PIN_KEY || null,
    releaseVersion: env.RELEASE_VERSION || '0.1.0',
    environment,
    logLevel: env.LOG_LEVEL || 'info',
    secureCookies: publicUrl.startsWith('https://'),
    retentionIntervalSeconds: int('RETENTION_INTERVAL_SECONDS', env.RETENTION_INTERVAL_SECONDS, 60, 0, 86_400),
    ratingCommentDays: int('RATING_COMMENT_RETENTION_DAYS', env.RATING_COMMENT_RETENTION_DAYS, 90, 1, 3650),
    accessibilityReportDays: int('ACCESSIBILITY_REPORT_RETENTION_DAYS', env.ACCESSIBILITY_REPORT_RETENTION_DAYS, 90, 1, 3650),
    trustProxy: trustProxy(env.TRUST_PROXY),
    ldap: ldapConfig(env),
    videoLayers: videoLayers(env),
    webLanguages: webLanguages(env.WEB_LANGUAGES),
  };
}

/**
 * Settings that start but do not do what they say: printed at start (server.ts), so nothing is dropped silently.
 * An ICE_SERVERS entry with a static password is never handed to browsers (turn-credentials.ts): TURN belongs in
 * TURN_URLS with TURN_SECRET, which gives each participant credentials of their own.
 */
export function configWarnings(config: Pick<Config, 'iceServers'>): string[] {
  const warnings: string[] = [];
  for (const s of config.iceServers) {
    if (s.credential || s.username) {
      warnings.push(
        `ICE_SERVERS entry ${JSON.stringify(s.urls)} has a static username/credential and is never given to browsers: put TURN servers in TURN_URLS with TURN_SECRET`,
      );
    }
  }
  return warnings;
}

function videoLayers(env: NodeJS.ProcessEnv): VideoLayers {
  const d = DEFAULT_VIDEO_LAYERS;
  const layers: VideoLayers = {
    lowKbps: int('SIMULCAST_LOW_KBPS', env.SIMULCAST_LOW_KBPS, d.lowKbps, 30, 10_000),
    mediumKbps: int('SIMULCAST_MEDIUM_KBPS', env.SIMULCAST_MEDIUM_KBPS, d.mediumKbps, 30, 10_000),
    highKbps: int('SIMULCAST_HIGH_KBPS', env.SIMULCAST_HIGH_KBPS, d.highKbps, 30, 20_000),
    screenKbps: int('SCREEN_SHARE_KBPS', env.SCREEN_SHARE_KBPS, d.screenKbps, 30, 20_000),
    screenFps: int('SCREEN_SHARE_FPS', env.SCREEN_SHARE_FPS, d.screenFps, 1, 60),
  };
  // A ladder that does not climb would make the viewers' layer choice meaningless (a "higher" layer costing less).
  if (!(layers.lowKbps < layers.mediumKbps && layers.mediumKbps < layers.highKbps)) {
    throw new ConfigError('SIMULCAST_LOW_KBPS < SIMULCAST_MEDIUM_KBPS < SIMULCAST_HIGH_KBPS must hold');
  }
  return layers;
}

// ---- The staff directory over LDAP (LDAP_*) -------------------------------------------------------------------------

export interface LdapConfig {
  /** ldap://host:port or ldaps://host:port. */
  url: string;
  /** Upgrade an ldap:// connection with StartTLS before the bind. */
  startTls: boolean;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  /** Which entries are people (AD: active user accounts, not computers); ANDed with every search. */
  userFilter: string;
  attributes: { agencyId: string; givenName: string; surname: string; mail: string };
  /** Most entries one search asks the server for; more matches are cut by the server (size limit). */
  sizeLimit: number;
  timeoutMs: number;
  /** How long an answer is reused (0: never); a colleague added to AD is searchable after at most this long. */
  cacheSeconds: number;
  /** PEM file of the CA that signed the directory's certificate, when it is not in the system store. */
  caFile: string | null;
}

// Active Directory's names. The default filter keeps to people (objectCategory) and leaves out disabled accounts
// (bit 2 of userAccountControl, matched with AD's bitwise-AND rule).
const LDAP_DEFAULT_USER_FILTER = '(&(objectCategory=person)(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))';
const LDAP_ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;


/** A filter an operator wrote: one parenthesised expression with balanced parentheses (escaped ones do not count). */
function isWellFormedFilter(filter: string): boolean {
  if (!filter.startsWith('(') || !filter.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === '\\') i += 2;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && i !== filter.length - 1) return false;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * LDAP_* settings, all or nothing: a half-configured directory stops the start rather than failing the first search,
 * and the bind password never crosses the network in clear text (plain ldap:// only to this machine, or with StartTLS).
 */
export function ldapConfig(env: NodeJS.ProcessEnv): LdapConfig | null {
  const set = Object.keys(env).filter((k) => k.startsWith('LDAP_') && env[k]);
  const url = env.LDAP_URL?.trim();
  if (!url) {
    if (set.length) throw new ConfigError(`${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set but LDAP_URL is not`);
    return null;
  }
  const missing = ['LDAP_BIND_DN', 'LDAP_BIND_PASSWORD', 'LDAP_BASE_DN'].filter((k) => !env[k]);
  if (missing.length) throw new ConfigError(`LDAP_URL needs ${missing.join(', ')}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`LDAP_URL must be ldap://host:port or ldaps://host:port, got "${url}"`);
  }
  if ((parsed.protocol !== 'ldap:' && parsed.protocol !== 'ldaps:') || !parsed.hostname || (parsed.pathname && parsed.pathname !== '/')) {
    throw new ConfigError(`LDAP_URL must be ldap://host:port or ldaps://host:port, got "${url}"`);
  }
  const startTlsValue = (env.LDAP_STARTTLS ?? '').trim().toLowerCase();
  if (!['', 'true', 'false'].includes(startTlsValue)) throw new ConfigError(`LDAP_STARTTLS must be true or false, got "${env.LDAP_STARTTLS}"`);
  const startTls = startTlsValue === 'true';
  if (startTls && parsed.protocol === 'ldaps:') throw new ConfigError('LDAP_STARTTLS is for ldap:// URLs; ldaps:// is encrypted already');
  if (parsed.protocol === 'ldap:' && !startTls && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigError('LDAP_URL sends the bind password in clear text to another machine: use ldaps://, or LDAP_STARTTLS=true');
  }
  const attribute = (name: string, fallback: string) => {
    const v = env[name]?.trim() || fallback;
    if (!LDAP_ATTRIBUTE_NAME.test(v)) throw new ConfigError(`${name} must be an LDAP attribute name, got "${v}"`);
    return v;
  };
  const userFilter = env.LDAP_USER_FILTER?.trim() || LDAP_DEFAULT_USER_FILTER;
  if (!isWellFormedFilter(userFilter)) throw new ConfigError(`LDAP_USER_FILTER must be one LDAP filter in parentheses, got "${userFilter}"`);
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    startTls,
    bindDn: env.LDAP_BIND_DN!,
    bindPassword: env.LDAP_BIND_PASSWORD!,
    baseDn: env.LDAP_BASE_DN!,
    userFilter,
    attributes: {
      agencyId: attribute('LDAP_ATTR_AGENCY_ID', 'sAMAccountName'),
      givenName: attribute('LDAP_ATTR_GIVEN_NAME', 'givenName'),
      surname: attribute('LDAP_ATTR_SURNAME', 'sn'),
      mail: attribute('LDAP_ATTR_MAIL', 'mail'),
    },
    sizeLimit: int('LDAP_SIZE_LIMIT', env.LDAP_SIZE_LIMIT, 50, 1, 1000),
    timeoutMs: int('LDAP_TIMEOUT_MS', env.LDAP_TIMEOUT_MS, 3000, 100, 60_000),
    cacheSeconds: int('LDAP_CACHE_SECONDS', env.LDAP_CACHE_SECONDS, 60, 0, 3600),
    caFile: env.LDAP_CA_FILE || null,
  };
}
