import type { SettingEntry } from '@videomote/contract/admin';
import { loadConfig, type Config } from '../../platform/config.ts';

export const MASK = '••••••••';

/** A connection string with its password replaced, so the host and database stay visible for troubleshooting. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = 'xxxxx';
    return u.toString().replace(':xxxxx@', `:${MASK}@`);
  } catch {
    return MASK;
  }
}

const show = (v: unknown): string => (v === null || v === undefined || v === '' ? '' : Array.isArray(v) ? v.join(', ') : String(v));

/**
 * The effective configuration as an administrator needs to see it. SECURITY: every secret (OIDC client secret,
 * PIN key, passwords in connection strings, TURN credentials) is masked here, before anything leaves the server.
 */
export function effectiveSettings(config: Config): SettingEntry[] {
  const defaults = loadConfig({});
  const iceServers = config.iceServers.map((s) => ({ urls: s.urls, ...(s.username ? { username: s.username } : {}), ...(s.credential ? { credential: MASK } : {}) }));
  const entries: [keyof Config | string, string, string, boolean, unknown][] = [
    ['port', 'PORT', show(config.port), false, defaults.port],
    ['host', 'HOST', show(config.host), false, defaults.host],
    ['internalHost', 'INTERNAL_HOST', show(config.internalHost), false, defaults.internalHost],
    ['internalPort', 'INTERNAL_PORT', show(config.internalPort), false, defaults.internalPort],
    ['metricsToken', 'METRICS_TOKEN', config.metricsToken ? MASK : 'ingen (interna adressen bara på loopback)', true, defaults.metricsToken],
    ['publicUrl', 'PUBLIC_URL', show(config.publicUrl), false, defaults.publicUrl],
    ['dataDir', 'DATA_DIR', show(config.dataDir), false, defaults.dataDir],
    ['databaseUrl', 'DATABASE_URL', config.databaseUrl ? maskUrl(config.databaseUrl) : 'inbyggd PGlite i DATA_DIR/db', !!config.databaseUrl, defaults.databaseUrl],
    ['redisUrl', 'REDIS_URL', config.redisUrl ? maskUrl(config.redisUrl) : 'i processen (en server)', !!config.redisUrl, defaults.redisUrl],
    ['clusterSecret', 'CLUSTER_SECRET', config.clusterSecret ? MASK : config.redisUrl ? 'härledd ur PIN-nyckeln (Redis på loopback)' : '', true, defaults.clusterSecret],
    ['janusUrls', 'JANUS_URL', config.janusUrls.length ? config.janusUrls.map(maskUrl).join(', ') : 'inbyggd Janus på loopback', false, defaults.janusUrls],
    ['janusIceEnforce', 'JANUS_ICE_ENFORCE', config.janusIceEnforce ?? 'Janus standard', false, defaults.janusIceEnforce],
    ['janusRtpPortRange', 'JANUS_RTP_PORT_RANGE', show(config.janusRtpPortRange), false, defaults.janusRtpPortRange],
    ['mediaLimits', 'MEDIA_PARTICIPANT_PEER_CONNECTIONS, MEDIA_MEETING_PEER_CONNECTIONS, MEDIA_WEBCAST_PEER_CONNECTIONS', `deltagare ${config.mediaLimits.perParticipant}, möte ${config.mediaLimits.perMeeting}, webbsändning ${config.mediaLimits.perWebcast}`, false, defaults.mediaLimits],
    ['mediaHeartbeatSeconds', 'MEDIA_HEARTBEAT_SECONDS', show(config.mediaHeartbeatSeconds), false, defaults.mediaHeartbeatSeconds],
    ['iceServers', 'ICE_SERVERS', JSON.stringify(iceServers), config.iceServers.some((s) => s.credential), defaults.iceServers],
    ['turnUrls', 'TURN_URLS', config.turnUrls.join(', '), false, defaults.turnUrls],
    ['turnSecret', 'TURN_SECRET', config.turnSecret ? MASK : '', true, defaults.turnSecret],
    ['oidcIssuer', 'OIDC_ISSUER', config.oidc?.issuer ?? 'inbyggd test-IdP på /idp', false, null],
    ['oidcClientId', 'OIDC_CLIENT_ID', config.oidc?.clientId ?? '', false, null],
    ['oidcClientSecret', 'OIDC_CLIENT_SECRET', config.oidc ? MASK : '', true, null],
    ['sessionMinutes', 'SESSION_MINUTES', show(config.sessionMinutes), false, defaults.sessionMinutes],
    ['sessionMaxHours', 'SESSION_MAX_HOURS', show(config.sessionMaxHours), false, defaults.sessionMaxHours],
    ['agencyHomeUrl', 'AGENCY_HOME_URL', show(config.agencyHomeUrl), false, defaults.agencyHomeUrl],
    ['pinKey', 'PIN_KEY', config.pinKey ? MASK : 'genererad i DATA_DIR/keys', true, defaults.pinKey],
    ['logLevel', 'LOG_LEVEL', show(config.logLevel), false, defaults.logLevel],
    ['releaseVersion', 'RELEASE_VERSION', show(config.releaseVersion), false, defaults.releaseVersion],
    ['environment', 'APP_ENVIRONMENT', show(config.environment), false, defaults.environment],
    ['retentionIntervalSeconds', 'RETENTION_INTERVAL_SECONDS', show(config.retentionIntervalSeconds), false, defaults.retentionIntervalSeconds],
    ['ratingCommentDays', 'RATING_COMMENT_RETENTION_DAYS', show(config.ratingCommentDays), false, defaults.ratingCommentDays],
    ['accessibilityReportDays', 'ACCESSIBILITY_REPORT_RETENTION_DAYS', show(config.accessibilityReportDays), false, defaults.accessibilityReportDays],
    [
      'videoLayers',
      'SIMULCAST_LOW_KBPS, SIMULCAST_MEDIUM_KBPS, SIMULCAST_HIGH_KBPS, SCREEN_SHARE_KBPS, SCREEN_SHARE_FPS',
      `kamera ${config.videoLayers.lowKbps}/${config.videoLayers.mediumKbps}/${config.videoLayers.highKbps} kbit/s, skärm ${config.videoLayers.screenKbps} kbit/s ${config.videoLayers.screenFps} bilder/s`,
      false,
      defaults.videoLayers,
    ],
    ['webLanguages', 'WEB_LANGUAGES', show(config.webLanguages), false, defaults.webLanguages],
  ];
  const configured = (key: string, fallback: unknown) => {
    if (key.startsWith('oidc')) return !!config.oidc;
    return JSON.stringify((config as unknown as Record<string, unknown>)[key]) !== JSON.stringify(fallback);
  };
  return entries.map(([key, env, value, secret, fallback]) => ({
    key: String(key),
    env,
    value,
    secret,
    source: configured(String(key), fallback) ? 'env' : 'default',
  }));
}
