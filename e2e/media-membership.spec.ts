import { describe, expect, it } from 'vitest';
import type { TestClient } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting, runningMeetingTimes } from '../apps/server/src/testing/fixtures.ts';
import { useMediaServer } from './support/media-server.ts';
import { fakeAudioOffer } from './support/media.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';

// Membership rules on the media side, against the real embedded Janus (inside the test network namespace):
// a participant removed from the booking, or everyone when the meeting is deleted, loses the media connection at
// once; and what the relay refuses shows in Felsökning's recent errors.
const server = useMediaServer();

const meeting = (type: 0 | 1) =>
  insertMeeting(server.t.db, server.t.app.deps.pins, {
    type,
    ...runningMeetingTimes(new Date(), 60_000),
    participants: [
      { persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
    ],
  });

/** Connected, with a promise of the close code. */
async function connect(client: TestClient, meetingId: string) {
  const c = await server.connect(client, meetingId);
  const closed = new Promise<number>((resolve) => c.raw.ws.once('close', (code) => resolve(code)));
  return { ...c, closed };
}

describe('media connections follow the booking', () => {
  it('removes a participant taken off the booking (4002, like a kick) and keeps the others', async () => {
    const m = await meeting(0);
    const erikClient = await server.t.as('erik');
    const erik = await connect(erikClient, m.id);
    const jonna = await connect(await server.t.as('jonna'), m.id);
    expect(server.t.app.media.connections(m.id)).toHaveLength(2);

    const current = (await erikClient.get(`/api/meeting/${m.id}`)).json().data;
    const res = await erikClient.put('/api/meeting', { ...current, participants: current.participants.filter((p: { displayName: string }) => p.displayName !== 'Jonna S') });
    expect(res.statusCode, res.body).toBe(200);
    expect(await jonna.closed).toBe(4002);
    expect(jonna.raw.own.map((o) => o.videomote)).toContain('forceDisconnected');
    await erik.raw.waitFor((msg) => msg.videomote === 'connectionDestroyed');
    expect(server.t.app.media.connections(m.id).map((c) => c.displayName)).toEqual(['Erik Handläggare']);

    // Deleting the meeting closes the rest.
    expect((await erikClient.delete(`/api/meeting/${m.id}`)).statusCode).toBe(200);
    expect(await erik.closed).toBe(4002);
    expect(server.t.app.media.connections(m.id)).toEqual([]);
  });

  it('records what the relay refused in Felsökning (code and reason, no personal data)', async () => {
    const m = await meeting(1);
    const jonna = await connect(await server.t.as('jonna'), m.id);
    const { session, handle } = await jonna.raw.attach();
    await jonna.raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: jonna.hello.roomId } }, true);
    let items: { source: string; code: string; message: string }[] = [];
    for (let i = 0; i < 50 && !items.length; i++) {
      items = (await (await server.t.as('anna')).get(`/api/admin/troubleshoot?q=${m.id}`)).json().data.recentErrors.items;
      if (!items.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(items).toEqual([{ at: expect.any(String), source: 'media', code: 'request-refused', message: expect.stringMatching(/no publish capability/) }]);
    expect(JSON.stringify(items)).not.toMatch(/Jonna|199001012385/);
    jonna.raw.close();
  });

  it('closes the media socket when its session ends (4004), leaving the others', async () => {
    const m = await meeting(0);
    const erik = await connect(await server.t.as('erik'), m.id);
    const jonnaClient = await server.t.as('jonna');
    const jonna = await connect(jonnaClient, m.id);
    // The logout route ends the session this way; a logout on another process arrives through the cluster bus as the same event.
    await server.t.app.deps.sessions.destroy(jonnaClient.cookies[SESSION_COOKIE]!);
    expect(await jonna.closed).toBe(4004);
    await erik.raw.waitFor((x) => x.videomote === 'connectionDestroyed' && x.connectionId === jonna.hello.connectionId);
    expect(server.t.app.media.connections(m.id).map((c) => c.displayName)).toEqual(['Erik Handläggare']);
    erik.raw.close();
  });

  it('takes publishing away at once from someone who may no longer present: feed kicked off Janus, socket closed (4009), publishing refused after', async () => {
    const m = await insertMeeting(server.t.db, server.t.app.deps.pins, {
      type: 1,
      ...runningMeetingTimes(new Date(), 60_000),
      participants: [
        { persona: 'erik', role: 'PresenterInternal', isAdmin: true },
        // Publishes in the webcast as one of its admins (not a presenter role): the booking can take that away.
        { persona: 'karin', role: 'PrivateContractor', isAdmin: true, displayName: 'Karin K' },
      ],
    });
    const erikClient = await server.t.as('erik');
    const erik = await connect(erikClient, m.id);
    const karinClient = await server.t.as('karin');
    const karin = await connect(karinClient, m.id);
    expect(karin.hello.capabilities).toMatchObject({ publish: true });
    const { session, handle } = await karin.raw.attach();
    await karin.raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: karin.hello.roomId } }, true);
    const configured = await karin.raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'configure', audio: true }, jsep: fakeAudioOffer() }, true);
    expect((configured.plugindata as { data: Record<string, unknown> }).data.configured, JSON.stringify(configured)).toBe('ok');
    await erik.raw.waitFor((x) => x.videomote === 'connectionUpdated' && (x.connection as { displayName: string; feedId: number | null }).displayName === 'Karin K' && (x.connection as { feedId: number | null }).feedId !== null);
    const control = await server.t.app.media.pool.get('embedded');
    expect((await control.listParticipants(erik.hello.roomId as number)).map((p) => JSON.parse(p.display ?? '{}').displayName)).toContain('Karin K');

    const current = (await erikClient.get(`/api/meeting/${m.id}`)).json().data;
    const participants = current.participants.map((p: { displayName: string }) => (p.displayName === 'Karin K' ? { ...p, isAdmin: false } : p));
    const res = await erikClient.put('/api/meeting', { ...current, participants });
    expect(res.statusCode, res.body).toBe(200);
    expect(await karin.closed).toBe(4009);
    expect((await control.listParticipants(erik.hello.roomId as number)).map((p) => JSON.parse(p.display ?? '{}').displayName)).not.toContain('Karin K');
    // Back with the same page's token: subscribe-only now, and a publisher join is refused.
    const again = await server.connect(karinClient, m.id);
    expect(again.hello.capabilities).toMatchObject({ publish: false, forceUnpublish: false });
    const h = await again.raw.attach();
    const refused = await again.raw.request({ janus: 'message', session_id: h.session, handle_id: h.handle, body: { request: 'join', ptype: 'publisher', room: again.hello.roomId } }, true);
    expect((refused.error as { reason: string }).reason).toMatch(/no publish capability/);
    again.raw.close();
    erik.raw.close();
  });
});
