import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { iceServersFor, TURN_CALL_TTL_MS, TURN_CHECK_TTL_MS, turnCredentials, turnExpiry, turnUser } from './turn-credentials.ts';

describe('TURN credentials', () => {
  it('are coturn\'s REST form: expiry:user, and base64 HMAC-SHA1 of it with the shared secret', () => {
    const c = turnCredentials('delad-hemlighet', 'p-123', Date.UTC(2026, 10, 24, 12, 0, 0) + 999);
    expect(c.username).toBe(`${Date.UTC(2026, 10, 24, 12, 0, 0) / 1000}:p-123`);
    expect(c.credential).toBe(crypto.createHmac('sha1', 'delad-hemlighet').update(c.username).digest('base64'));
    expect(turnCredentials('annan', 'p-123', Date.UTC(2026, 10, 24, 12)).credential).not.toBe(c.credential);
  });

  it('expire within their lifetime and at least half of it from now, one expiry for every request within a half-lifetime step', () => {
    for (const ttl of [TURN_CALL_TTL_MS, TURN_CHECK_TTL_MS]) {
      for (const now of [Date.UTC(2026, 10, 24, 12), Date.UTC(2026, 10, 24, 12, 0, 0, 1), Date.UTC(2026, 10, 24, 12, 59, 59, 999), Date.UTC(2031, 0, 1, 7, 13)]) {
        const expiry = turnExpiry(now, ttl);
        expect(expiry).toBeGreaterThan(now + ttl / 2 - 1);
        expect(expiry).toBeLessThanOrEqual(now + ttl);
      }
    }
    const base = Date.UTC(2026, 10, 24, 12);
    expect(turnExpiry(base + 1, TURN_CALL_TTL_MS)).toBe(turnExpiry(base + TURN_CALL_TTL_MS / 2 - 1, TURN_CALL_TTL_MS));
    expect(turnExpiry(base + TURN_CALL_TTL_MS / 2, TURN_CALL_TTL_MS)).toBe(turnExpiry(base, TURN_CALL_TTL_MS) + TURN_CALL_TTL_MS / 2);
  });

  it('name a participant by their id and a visitor by their session, never showing the session\'s subject', () => {
    expect(turnUser('p-1', 'sub-a')).toBe('p-1');
    expect(turnUser(null, 'sub-a')).toBe(turnUser(null, 'sub-a'));
    expect(turnUser(null, 'sub-a')).not.toBe(turnUser(null, 'sub-b'));
    expect(turnUser(null, 'sub-a')).toMatch(/^visitor-[A-Za-z0-9_-]{16}$/);
  });

  it('reach a browser only as its own short-lived pair; a static password in ICE_SERVERS never does', () => {
    const config = {
      iceServers: [{ urls: 'stun:stun.example:3478' }, { urls: 'turn:static.example:3478', username: 'u', credential: 'statiskt-lösen' }],
      turnUrls: ['turn:turn.example:3478?transport=udp', 'turn:turn.example:3478?transport=tcp'],
      turnSecret: 'delad-hemlighet',
    };
    const servers = iceServersFor(config, 'p-1', 1_900_000_000_000);
    expect(JSON.stringify(servers)).not.toContain('statiskt-lösen');
    expect(servers).toEqual([{ urls: 'stun:stun.example:3478' }, { urls: config.turnUrls, ...turnCredentials('delad-hemlighet', 'p-1', 1_900_000_000_000) }]);
    expect(iceServersFor({ ...config, turnUrls: [], turnSecret: null }, 'p-1', 0)).toEqual([{ urls: 'stun:stun.example:3478' }]);
  });
});
