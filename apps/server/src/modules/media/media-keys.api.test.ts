import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { bookedCall, tokenFor } from '../../testing/media-call.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { membershipOf } from '../meetings/meeting-membership.ts';

// Everything the server logs while these tests run, down to debug: a key must never be among it.
const logLines: string[] = [];
// No Janus here: tokens and keys are issued, rooms are not created (the room's require_e2ee and the push of a
// new key over /media are checked against a real Janus in e2e/media-e2ee.spec.ts).
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9' }, logStream: { write: (line) => void logLines.push(line) } });

const meeting = (type: 0 | 1 = 0) => bookedCall(t, type, { withKarin: true });

const tokenOf = async (who: Parameters<typeof t.as>[0], meetingId: string, displayName?: string) => tokenFor(await t.as(who), meetingId, displayName);

const keyOf = async (who: Parameters<typeof t.as>[0], meetingId: string, displayName?: string) => {
  const res = await tokenOf(who, meetingId, displayName);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.mediaKey as { epoch: number; key: string };
};

async function removeFromBooking(meetingId: string, displayName: string) {
  const erik = await t.as('erik');
  const current = (await erik.get(`/api/meeting/${meetingId}`)).json().data;
  const res = await erik.put('/api/meeting', { ...current, participants: current.participants.filter((p: { displayName: string }) => p.displayName !== displayName) });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the meeting media key', () => {
  it('is 256 random bits, one per meeting, the same for every participant, stored only encrypted', async () => {
    const m = await meeting();
    const erik = await keyOf('erik', m.id);
    expect(erik.epoch).toBe(1);
    expect(Buffer.from(erik.key, 'base64url')).toHaveLength(32);
    expect(await keyOf('jonna', m.id)).toEqual(erik);
    const other = await meeting();
    expect((await keyOf('erik', other.id)).key).not.toBe(erik.key);

    // At rest: ciphertext under the personnummer's key, not the key itself in any form.
    const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM media_keys WHERE meeting_id = $1', [m.id]);
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(erik.key);
    expect(dump).not.toContain(Buffer.from(erik.key, 'base64url').toString('base64'));
    expect(dump).not.toContain(Buffer.from(erik.key, 'base64url').toString('hex'));
    expect(t.app.deps.pins.decrypt(rows[0]!.key_encrypted as string)).toBe(erik.key);
  });

  it('goes to a webcast’s visitors, never to a stranger or a visitor of another webcast', async () => {
    const w = await meeting(1);
    const presenter = await keyOf('erik', w.id);
    const visitor = anonymousSessionUser({ subject: `visitor-${w.id}`, firstName: 'Besökare Ett', meetingId: w.id });
    expect(await keyOf(visitor, w.id, 'Besökare Ett')).toEqual(presenter);

    const stranger = await tokenOf('anna', w.id, 'Anna');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.body).not.toContain(presenter.key);
    const elsewhere = anonymousSessionUser({ subject: 'visitor-other', firstName: '', meetingId: (await meeting(1)).id });
    const refused = await tokenOf(elsewhere, w.id, 'Besökare Två');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(presenter.key);
    expect((await t.anonymous().post('/api/meeting/gettoken', { meetingId: w.id, displayName: 'X' })).statusCode).toBe(401);
  });

  it('is replaced when a participant who had it is removed; those left get the new one, the removed one nothing', async () => {
    const m = await meeting();
    const first = await keyOf('erik', m.id);
    await keyOf('jonna', m.id);
    // Karin never fetched it: an update that removes her leaves the key as it is.
    await removeFromBooking(m.id, 'Karin Kompletterande');
    expect(await keyOf('erik', m.id)).toEqual(first);

    await removeFromBooking(m.id, 'Jonna S');
    const second = await keyOf('erik', m.id);
    expect(second.epoch).toBe(2);
    expect(second.key).not.toBe(first.key);
    const jonna = await tokenOf('jonna', m.id);
    expect(jonna.statusCode).toBe(403);
    expect(jonna.body).not.toContain(second.key);

    // An update that removes nobody replaces nothing.
    const erik = await t.as('erik');
    const current = (await erik.get(`/api/meeting/${m.id}`)).json().data;
    expect((await erik.put('/api/meeting', { ...current, title: 'Nytt namn' })).statusCode).toBe(200);
    expect(await keyOf('erik', m.id)).toEqual(second);
  });

  it('is replaced when the participant row now names another person than the one who was handed the key', async () => {
    const m = await meeting();
    const first = await keyOf('jonna', m.id);
    await t.db.query("UPDATE meeting_participants SET pin_hash = $2 WHERE id = $1", [m.participantIds[1], t.app.deps.pins.hash('198001019802')]);
    await t.app.deps.events.emit({ type: 'membershipChanged', meetingId: m.id });
    const second = await keyOf('erik', m.id);
    expect(second.epoch).toBe(first.epoch + 1);
  });

  it('never appears in a log line, in any form, through issue, rotation and refusals', async () => {
    const m = await meeting();
    const keys = [await keyOf('erik', m.id)];
    await keyOf('jonna', m.id);
    await removeFromBooking(m.id, 'Jonna S');
    keys.push(await keyOf('erik', m.id));
    await tokenOf('jonna', m.id);
    expect(keys[1]!.epoch).toBe(2);
    // The logs are on and did record this test's requests, so an empty capture cannot pass for a clean one.
    expect(logLines.some((l) => l.includes('/api/meeting/gettoken'))).toBe(true);
    expect(logLines.some((l) => l.includes('media key replaced'))).toBe(true);
    const all = logLines.join('\n');
    for (const { key } of keys) {
      const raw = Buffer.from(key, 'base64url');
      for (const form of [key, raw.toString('base64'), raw.toString('hex')]) expect(all).not.toContain(form);
    }
  });

  it('is replaced when a webcast becomes a conversation meeting: its visitors\' key opens nothing of the new one', async () => {
    const w = await insertMeeting(t.db, t.app.deps.pins, {
      type: 1,
      start: '2026-11-20T09:00:00+01:00',
      end: '2026-11-20T10:00:00+01:00',
      participants: [{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }],
    });
    const visitor = anonymousSessionUser({ subject: `visitor-${w.id}`, firstName: 'Besökare Ett', meetingId: w.id });
    const held = await keyOf(visitor, w.id);
    expect(await keyOf('erik', w.id)).toEqual(held);
    const erik = await t.as('erik');
    const current = (await erik.get(`/api/meeting/${w.id}`)).json().data;
    const converted = await erik.put('/api/meeting', { ...current, type: 0 });
    expect(converted.statusCode, converted.body).toBe(200);
    const now = await keyOf('erik', w.id);
    expect(now.epoch).toBe(held.epoch + 1);
    expect(now.key).not.toBe(held.key);
    const gone = await tokenOf(visitor, w.id);
    expect(gone.statusCode).toBe(403);
    expect(gone.body).not.toContain(now.key);
  });

  it('is refused to a token request admitted just before a removal, which is not recorded as a holder either', async () => {
    const m = await meeting();
    const first = await keyOf('erik', m.id);
    await keyOf('jonna', m.id);
    // Jonna's request was admitted (her membership read) ...
    const jonna = await t.as('jonna');
    const admitted = await membershipOf(t.db, m.id, jonna.user!);
    expect(admitted?.kind).toBe('participant');
    // ... then she is removed and the key replaced, before her request reaches the hand-out.
    await removeFromBooking(m.id, 'Jonna S');
    const rotated = await keyOf('erik', m.id);
    expect(rotated.epoch).toBe(first.epoch + 1);
    await expect(t.app.media.keys.handTo(admitted!, jonna.user!)).rejects.toMatchObject({ code: 'Forbidden' });
    const holders = await t.db.query<{ participant_id: string }>('SELECT participant_id FROM media_key_holders WHERE meeting_id = $1', [m.id]);
    expect(holders.map((h) => h.participant_id)).not.toContain(m.participantIds[1]);
  });
});
