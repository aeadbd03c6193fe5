import { describe, expect, it } from 'vitest';
import { MEETING_ERROR_ERRORS, RECENT_ERRORS_LIMIT } from '@videomote/contract/admin';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { ChatTestClient } from '../chat/chat-test-client.ts';
import { meetingErrorRecorder, RECORDED_PER_MINUTE, recordMeetingError, scrubErrorText } from './meeting-errors.ts';

/** Felsökning's recent errors: recorded by the chat module, reported by browsers, shown to the admin. */
const t = useTestApp('2026-11-20T12:00:00+01:00', { listen: true });
const chatUrl = () => `ws://${t.host}/chat`;

const seed = (title = 'Uppföljning', type: 0 | 1 = 0) =>
  insertMeeting(t.db, t.app.deps.pins, {
    title,
    type,
    start: '2026-11-20T11:30:00+01:00',
    end: '2026-11-20T12:30:00+01:00',
    participants: [
      { persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });

const errorsShown = async (meetingId: string) => {
  const res = await (await t.as('anna')).get(`/api/admin/troubleshoot?q=${meetingId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.recentErrors as { available: true; items: { at: string; source: string; code: string; message: string }[] };
};

/** Waits for the recorder (fire-and-forget beside the socket) to have written `n` rows. */
async function rows(meetingId: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const r = await t.db.query<{ source: string; code: string; message: string }>('SELECT source, code, message FROM meeting_errors WHERE meeting_id = $1 ORDER BY id', [meetingId]);
    if (r.length >= n) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${n} errors recorded`);
}

const cookieOf = async (who: Parameters<typeof t.as>[0]) => `${SESSION_COOKIE}=${(await t.as(who)).cookies[SESSION_COOKIE]}`;

describe('client-reported call errors: POST /api/meetingerror', () => {
  it('records a participant report with its code and scrubbed text, and Felsökning shows it', async () => {
    const m = await seed();
    const jonna = await t.as('jonna');
    const res = await jonna.post('/api/meetingerror', {
      meetingId: m.id,
      code: 'OT_HARDWARE_UNAVAILABLE',
      message: 'NotReadableError: Could not start video source; ring 070-123 45 67 eller jonna@example.se, pnr 199001012385',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { recorded: true } });
    const shown = await errorsShown(m.id);
    expect(shown.items).toEqual([
      {
        at: '2026-11-20T11:00:00.000Z',
        source: 'client',
        code: 'OT_HARDWARE_UNAVAILABLE',
        message: 'NotReadableError: Could not start video source; ring [borttaget] eller [borttaget], pnr [borttaget]',
      },
    ]);
    // A report without text is stored under its code.
    t.clock.advance(1000);
    expect((await (await t.as('erik')).post('/api/meetingerror', { meetingId: m.id, code: 'networkDisconnected' })).statusCode).toBe(200);
    expect((await errorsShown(m.id)).items.map((i) => [i.code, i.message])).toEqual([
      ['networkDisconnected', 'networkDisconnected'],
      ['OT_HARDWARE_UNAVAILABLE', expect.any(String)],
    ]);
  });

  it('validates every field in Swedish, in the spec shape', async () => {
    const m = await seed();
    const jonna = await t.as('jonna');
    const all = await jonna.post('/api/meetingerror', { meetingId: 'x', code: '<script>', message: 'y'.repeat(201) });
    expect(all.statusCode).toBe(400);
    expect(all.json()).toEqual({
      name: 'ValidationError',
      message: MEETING_ERROR_ERRORS.meetingId,
      statusCode: 400,
      errors: [
        { fields: ['meetingId'], message: MEETING_ERROR_ERRORS.meetingId },
        { fields: ['code'], message: MEETING_ERROR_ERRORS.code },
        { fields: ['message'], message: MEETING_ERROR_ERRORS.messageTooLong },
      ],
    });
    for (const body of [{}, { meetingId: m.id }, { meetingId: m.id, code: 42 }, { meetingId: m.id, code: 'SOMETHING_ELSE', message: { a: 1 } }, 'x']) {
      const res = await jonna.request({ method: 'POST', url: '/api/meetingerror', payload: { data: body } });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await t.db.query('SELECT 1 FROM meeting_errors')).toEqual([]);
  });

  it('is for the meeting’s own people: 401 without a session, 403 for others, 404 for an unknown meeting', async () => {
    const m = await seed();
    const webcast = await seed('Webbsändning', 1);
    const report = { meetingId: m.id, code: 'connectionFailed', message: 'ICE failed' };
    expect((await t.anonymous().post('/api/meetingerror', report)).statusCode).toBe(401);
    for (const who of ['anna', 'karin', 'fredrik'] as const) {
      const res = await (await t.as(who)).post('/api/meetingerror', report);
      expect(res.statusCode, who).toBe(403);
      expect(res.json().message).toBe(MEETING_ERROR_ERRORS.notParticipant);
    }
    const visitorOf = (meetingId: string) => anonymousSessionUser({ subject: `anon-${meetingId}`, firstName: 'Sara', meetingId });
    // A webcast's visitor reports for that webcast, and for no other meeting.
    expect((await (await t.as(visitorOf(webcast.id))).post('/api/meetingerror', report)).statusCode).toBe(403);
    expect((await (await t.as(visitorOf(webcast.id))).post('/api/meetingerror', { ...report, meetingId: webcast.id })).statusCode).toBe(200);
    const unknown = await (await t.as('erik')).post('/api/meetingerror', { ...report, meetingId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(await rows(webcast.id, 1)).toHaveLength(1);
    expect(await t.db.query('SELECT 1 FROM meeting_errors WHERE meeting_id = $1', [m.id])).toEqual([]);
  });

  it('is rate limited per session: a browser in a loop gets 429 after 20 a minute', async () => {
    const m = await seed();
    const jonna = await t.as('jonna');
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await jonna.post('/api/meetingerror', { meetingId: m.id, code: 'SUBSCRIBE_FAILED' })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});

describe('errors recorded by the server', () => {
  it('records a member’s chat refusals (a foreign origin, an oversized frame, a flood), never a stranger’s', async () => {
    const m = await seed();
    const refused = (p: Promise<ChatTestClient>) => p.then(() => 'connected', (e: Error) => e.message);
    expect(await refused(ChatTestClient.connect(`${chatUrl()}/${m.id}`, await cookieOf('karin')))).toBe('refused: 403');
    expect(await refused(ChatTestClient.connect(`${chatUrl()}/${m.id}`, null))).toBe('refused: 401');
    expect(await refused(ChatTestClient.connect(`${chatUrl()}/${m.id}`, await cookieOf('erik'), { origin: 'https://evil.example' }))).toBe('refused: 403');
    const big = await ChatTestClient.connect(`${chatUrl()}/${m.id}`, await cookieOf('jonna'));
    big.socket.send('x'.repeat(20_000));
    expect(await big.closed()).toBe(1009);
    const flooder = await ChatTestClient.connect(`${chatUrl()}/${m.id}`, await cookieOf('jonna'));
    for (let i = 0; i < 500; i++) if (flooder.socket.readyState === flooder.socket.OPEN) flooder.chat(`flood ${i}`);
    expect(await flooder.closed()).toBe(1008);

    // Strangers again, many times: a non-member's socket, no session at all, a foreign page without a session.
    for (let i = 0; i < 5; i++) {
      expect(await refused(ChatTestClient.connect(`${chatUrl()}/${m.id}`, await cookieOf('karin')))).toBe('refused: 403');
      expect(await refused(ChatTestClient.connect(`${chatUrl()}/${m.id}`, null, { origin: 'https://evil.example' }))).toBe('refused: 403');
    }

    const recorded = await rows(m.id, 3);
    expect(recorded.map((r) => [r.source, r.code, r.message])).toEqual([
      ['chat', 'socket-refused', 'Anslutning till chatten nekades: fel ursprung (Origin)'],
      ['chat', 'frame-too-big', expect.any(String)],
      ['chat', 'flood', expect.any(String)],
    ]);
    // Reasons, never the content or who it was.
    const text = JSON.stringify(recorded);
    expect(text).not.toMatch(/flood \d|xxxx|Jonna|Karin|199001012385/);
    // A refusal for a meeting that does not exist records nothing (and does not fail).
    expect(await refused(ChatTestClient.connect(`${chatUrl()}/00000000-0000-4000-8000-000000000000`, await cookieOf('karin')))).toBe('refused: 403');
    expect((await t.db.query('SELECT 1 FROM meeting_errors')).length).toBe(3);
  });

  it('records at most 30 errors a meeting a minute from the live modules, then again the next minute', async () => {
    const m = await seed();
    const other = await seed('Annat möte');
    const record = meetingErrorRecorder(t.db, t.clock.now);
    for (let i = 0; i < 45; i++) record(m.id, 'media', 'janus-publish-failed', `fel ${i}`);
    record(other.id, 'media', 'room-create-failed', 'x');
    const count = async (id: string) => (await t.db.query('SELECT 1 FROM meeting_errors WHERE meeting_id = $1', [id])).length;
    await expect.poll(() => count(m.id)).toBe(RECORDED_PER_MINUTE);
    // Another meeting has a budget of its own.
    await expect.poll(() => count(other.id)).toBe(1);
    t.clock.advance(60_000);
    record(m.id, 'media', 'janus-publish-failed', 'nästa minut');
    await expect.poll(() => count(m.id)).toBe(RECORDED_PER_MINUTE + 1);
    expect(RECORDED_PER_MINUTE).toBe(30);
  });

  it('Felsökning shows the latest 50, newest first; the table keeps at most 200 per meeting', async () => {
    const m = await seed();
    const other = await seed('Annat möte');
    const start = Date.parse('2026-11-20T11:00:00Z');
    for (let i = 0; i < 230; i++) {
      await recordMeetingError(t.db, { meetingId: m.id, source: 'media', code: 'janus-publish-failed', message: `Janus: fel nr ${i}`, at: new Date(start + i * 1000) });
    }
    await recordMeetingError(t.db, { meetingId: other.id, source: 'media', code: 'room-create-failed', message: 'x', at: new Date(start) });
    const shown = await errorsShown(m.id);
    expect(shown.items).toHaveLength(RECENT_ERRORS_LIMIT);
    expect(shown.items[0]).toEqual({ at: new Date(start + 229_000).toISOString(), source: 'media', code: 'janus-publish-failed', message: 'Janus: fel nr 229' });
    expect(shown.items.at(-1)!.message).toBe('Janus: fel nr 180');
    expect((await t.db.query('SELECT 1 FROM meeting_errors WHERE meeting_id = $1', [m.id])).length).toBe(200);
    expect((await errorsShown(other.id)).items.map((i) => i.code)).toEqual(['room-create-failed']);
  });

  it('scrubs digit runs and e-mail addresses and folds control characters', () => {
    expect(scrubErrorText('a\u0000b\n\tc  d')).toBe('a b c d');
    expect(scrubErrorText('19900101-2385 +46 70 123 45 67 x@y.se 458')).toBe('[borttaget] [borttaget] [borttaget] 458');
    expect(scrubErrorText('z'.repeat(600))).toHaveLength(500);
  });
});
