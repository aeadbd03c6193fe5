import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { iceServersFor, TURN_MARGIN_MS, turnCredentials, turnExpiry } from './turn-credentials.ts';

describe('TURN credentials', () => {
  it('are coturn\'s REST form: expiry:user, and base64 HMAC-SHA1 of it with the shared secret', () => {
    const c = turnCredentials('delad-hemlighet', 'p-123', Date.UTC(2026, 10, 24, 12, 0, 0) + 999);
    expect(c.username).toBe(`${Date.UTC(2026, 10, 24, 12, 0, 0) / 1000}:p-123`);
    expect(c.credential).toBe(crypto.createHmac('sha1', 'delad-hemlighet').update(c.username).digest('base64'));
    expect(turnCredentials('annan', 'p-123', Date.UTC(2026, 10, 24, 12)).credential).not.toBe(c.credential);
  });

  it('expire at the meeting\'s end plus the margin, or from now for a meeting already over', () => {
    const end = new Date('2026-11-24T12:00:00Z');
    expect(turnExpiry(end, new Date('2026-11-24T11:00:00Z'))).toBe(end.getTime() + TURN_MARGIN_MS);
    expect(turnExpiry(end, new Date('2026-11-24T13:00:00Z'))).toBe(new Date('2026-11-24T13:00:00Z').getTime() + TURN_MARGIN_MS);
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
