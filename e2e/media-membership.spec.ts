import { describe, expect, it } from 'vitest';
import type { TestClient } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import { useMediaServer } from './support/media-server.ts';

// Issue 7 and 8 remainders on the media side, against the real embedded Janus (inside the test network namespace):
// a participant removed from the booking, or everyone when the meeting is deleted, loses the media connection at
// once; and what the relay refuses shows in Felsökning's recent errors.
const server = useMediaServer();

const meeting = (type: 0 | 1) =>
  insertMeeting(server.t.db, server.t.app.deps.pins, {
    type,
    start: new Date(Date.now() - 60_000),
    end: new Date(Date.now() + 3600_000),
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
});
