import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { tokenFor } from '../../testing/media-call.ts';
import { TURN_MARGIN_MS } from './turn-credentials.ts';

// No Janus here (API suite): tokens are issued without a room. coturn itself is exercised in e2e/media-reach.spec.ts.
const SECRET = 'delad-hemlighet-för-test';
const t = useTestApp('2026-11-20T09:00:00+01:00', {
  env: {
    JANUS_URL: 'ws://127.0.0.1:9',
    TURN_URLS: 'turn:turn.example:3478?transport=udp,turn:turn.example:3478?transport=tcp',
    TURN_SECRET: SECRET,
    ICE_SERVERS: JSON.stringify([{ urls: 'stun:stun.example:3478' }, { urls: 'turn:static.example:3478', username: 'alla', credential: 'statiskt-lösenord' }]),
  },
});

describe('TURN credentials with the media token', () => {
  it('gives each participant its own coturn REST credentials until the meeting\'s end plus the margin, and no static password anywhere', async () => {
    const m = await insertMeeting(t.db, t.app.deps.pins, {
      type: 0,
      start: '2026-11-20T09:00:00+01:00',
      end: '2026-11-20T10:00:00+01:00',
      participants: [
        { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
        { persona: 'jonna', role: 'JobSeeker' },
      ],
    });
    const token = async (who: 'erik' | 'jonna') => {
      const res = await tokenFor(await t.as(who), m.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('statiskt-lösenord');
      expect(res.body).not.toContain(SECRET);
      return res.json().data.iceServers as { urls: string | string[]; username?: string; credential?: string }[];
    };
    const [erik, jonna] = [await token('erik'), await token('jonna')];
    const expiry = (new Date('2026-11-20T10:00:00+01:00').getTime() + TURN_MARGIN_MS) / 1000;
    for (const [servers, participantId] of [[erik, m.participantIds[0]], [jonna, m.participantIds[1]]] as const) {
      expect(servers[0]).toEqual({ urls: 'stun:stun.example:3478' });
      expect(servers).toHaveLength(2);
      const turn = servers[1]!;
      expect(turn.urls).toEqual(['turn:turn.example:3478?transport=udp', 'turn:turn.example:3478?transport=tcp']);
      expect(turn.username).toBe(`${expiry}:${participantId}`);
      expect(turn.credential).toBe(crypto.createHmac('sha1', SECRET).update(turn.username!).digest('base64'));
    }
    // The public client configuration lists only what needs no password.
    const config = await t.app.inject('/assets/config/config.json');
    expect(config.json().iceServers).toEqual([{ urls: 'stun:stun.example:3478' }]);
    expect(config.body).not.toContain('statiskt-lösenord');
  });
});
