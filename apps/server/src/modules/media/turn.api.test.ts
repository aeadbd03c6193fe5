import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { tokenFor } from '../../testing/media-call.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { TURN_CALL_TTL_MS } from './turn-credentials.ts';

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

/** A meeting 09:00–10:00 on `day` booked by its one participant. */
const oneHourOn = (day: string, type: 0 | 1, booker: Parameters<typeof insertMeeting>[2]['participants'][number]) =>
  insertMeeting(t.db, t.app.deps.pins, { type, start: `${day}T09:00:00+01:00`, end: `${day}T10:00:00+01:00`, participants: [booker] });

describe('TURN credentials with the media token', () => {
  it('gives each participant its own short-lived coturn REST credentials, and no static password anywhere', async () => {
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
    // The clock stands at 08:00Z: the current hour's step ends 09:00Z, the expiry is the end of the next (10:00Z).
    const expiry = Date.parse('2026-11-20T10:00:00Z') / 1000;
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

  it('are short-lived however far ahead the meeting is booked: a contractor\'s meeting five years ahead gets hours for the call and minutes for the check', async () => {
    const m = await oneHourOn('2031-11-20', 0, { persona: 'karin', role: 'PrivateContractor', isAdmin: true });
    const karin = await t.as('karin');
    const now = t.clock.now().getTime();
    const expiryOf = (servers: { username?: string }[]) => Number(servers.find((s) => s.username)!.username!.split(':')[0]) * 1000;
    const check = await karin.post(`/api/meeting/${m.id}/connectioncheck`, {});
    expect(check.statusCode, check.body).toBe(200);
    const checkExpiry = expiryOf(check.json().data.iceServers);
    expect(checkExpiry).toBeGreaterThan(now);
    expect(checkExpiry).toBeLessThanOrEqual(now + 10 * 60_000);
    const call = await tokenFor(karin, m.id);
    expect(call.statusCode, call.body).toBe(200);
    const callExpiry = expiryOf(call.json().data.iceServers);
    expect(callExpiry).toBeGreaterThan(now + TURN_CALL_TTL_MS / 2 - 1);
    expect(callExpiry).toBeLessThanOrEqual(now + TURN_CALL_TTL_MS);
    expect(TURN_CALL_TTL_MS).toBeLessThanOrEqual(4 * 3600_000);
  });

  it('gives a webcast visitor one TURN name however many tokens the visitor session asks for, and another visitor another', async () => {
    const m = await oneHourOn('2026-11-20', 1, { persona: 'erik', role: 'PresenterInternal', isAdmin: true });
    const visitor = (subject: string) => t.as(anonymousSessionUser({ subject, firstName: 'Sara', meetingId: m.id }));
    const turnName = async (client: Awaited<ReturnType<typeof visitor>>) => {
      const res = await client.post('/api/meeting/gettoken', { meetingId: m.id });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.iceServers as { username?: string }[]).find((s) => s.username)!.username!;
    };
    const sara = await visitor('anon-sara-1');
    const names = new Set([await turnName(sara), await turnName(sara), await turnName(sara)]);
    expect(names.size).toBe(1);
    const [name] = [...names];
    expect(name).not.toContain('anon-sara-1');
    expect(await turnName(await visitor('anon-other-2'))).not.toBe(name);
  });
});
