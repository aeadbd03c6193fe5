import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { effectiveSettings, MASK, maskUrl } from './app-settings.ts';

describe('effective settings', () => {
  it('masks every secret and keeps the rest readable', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://vm:hemligt1@db.internal:5432/videomote?sslmode=verify-full',
      REDIS_URL: 'rediss://:hemligt2@cache:6380',
      CLUSTER_SECRET: 'hemligt6-0123456789abcdef0123456789abcdef',
      OIDC_ISSUER: 'https://idp.example',
      OIDC_CLIENT_ID: 'videomote',
      OIDC_CLIENT_SECRET: 'hemligt3',
      PIN_KEY: Buffer.alloc(32, 1).toString('base64'),
      METRICS_TOKEN: 'hemligt5-0123456789abcdef0123456789abcdef',
      ICE_SERVERS: JSON.stringify([{ urls: 'turn:turn.example:3478', username: 'u', credential: 'hemligt4' }]),
      PORT: '8080',
    });
    const settings = effectiveSettings(config);
    const text = JSON.stringify(settings);
    for (const secret of ['hemligt1', 'hemligt2', 'hemligt3', 'hemligt4', 'hemligt5', 'hemligt6', Buffer.alloc(32, 1).toString('base64')]) expect(text).not.toContain(secret);
    const byEnv = Object.fromEntries(settings.map((s) => [s.env, s]));
    expect(byEnv.DATABASE_URL!.value).toBe(`postgres://vm:${MASK}@db.internal:5432/videomote?sslmode=verify-full`);
    expect(byEnv.OIDC_CLIENT_SECRET).toMatchObject({ value: MASK, secret: true, source: 'env' });
    expect(byEnv.METRICS_TOKEN).toMatchObject({ value: MASK, secret: true, source: 'env' });
    expect(byEnv.CLUSTER_SECRET).toMatchObject({ value: MASK, secret: true, source: 'env' });
    expect(byEnv.OIDC_CLIENT_ID!.value).toBe('videomote');
    expect(byEnv.PORT).toMatchObject({ value: '8080', source: 'env' });
    expect(byEnv.LOG_LEVEL).toMatchObject({ value: 'info', source: 'default' });
  });

  it('describes the embedded defaults in Swedish', () => {
    const byEnv = Object.fromEntries(effectiveSettings(loadConfig({})).map((s) => [s.env, s.value]));
    expect(byEnv.DATABASE_URL).toBe('inbyggd PGlite i DATA_DIR/db');
    expect(byEnv.OIDC_ISSUER).toBe('inbyggd test-IdP på /idp');
    expect(byEnv.OIDC_CLIENT_SECRET).toBe('');
    expect(maskUrl('not a url')).toBe(MASK);
    expect(byEnv['MEDIA_PARTICIPANT_PEER_CONNECTIONS, MEDIA_MEETING_PEER_CONNECTIONS, MEDIA_WEBCAST_PEER_CONNECTIONS']).toBe('deltagare 26, möte 120, webbsändning 400');
    expect(byEnv.JANUS_RTP_PORT_RANGE).toBe('20000-20999');
  });
});
