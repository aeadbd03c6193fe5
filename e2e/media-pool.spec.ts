import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import { JanusSupervisor } from '../apps/server/src/modules/media/janus/janus-supervisor.ts';
import { RawMediaClient } from './support/media.ts';

// JANUS_URL with two instances (both run here by supervisors with shared secrets, as an operator would configure
// them): new rooms go to the least loaded instance, and each /media connection is relayed to its room's instance.
const secrets = { tokenSecret: crypto.randomBytes(16).toString('hex'), roomAdminKey: crypto.randomBytes(16).toString('hex') };
const log = { info() {}, warn() {}, error() {} };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-pool-'));
const januses = ['a', 'b'].map(
  (name) => new JanusSupervisor({ dataDir, name: `janus-${name}`, iceEnforce: process.env.JANUS_ICE_ENFORCE ?? null, rtpPortRange: name === 'a' ? '20200-20250' : '20300-20350', log, secrets }),
);
let t: TestApp;
let urls: string[];
let base: string;

beforeAll(async () => {
  urls = (await Promise.all(januses.map((j) => j.ensureStarted()))).map((j) => j.url);
  // The media module reads the external instances' secrets from the process environment, as server.ts runs it.
  process.env.JANUS_TOKEN_SECRET = secrets.tokenSecret;
  process.env.JANUS_ADMIN_KEY = secrets.roomAdminKey;
  t = await buildTestApp({ env: { JANUS_URL: urls.join(',') } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await t?.close();
  await Promise.all(januses.map((j) => j.stop()));
  delete process.env.JANUS_TOKEN_SECRET;
  delete process.env.JANUS_ADMIN_KEY;
});

it('places rooms on the least loaded instance and relays each meeting to its own', async () => {
  const erik = await t.as('erik');
  const rooms: { instance: string; roomId: number }[] = [];
  for (let i = 0; i < 2; i++) {
    const m = await insertMeeting(t.db, t.app.deps.pins, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() + 3600_000),
      participants: [{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }],
    });
    expect((await erik.post(`/api/lobby/${m.id}/consent`, {})).statusCode).toBe(200);
    const token = (await erik.post('/api/meeting/gettoken', { meetingId: m.id })).json().data.tokenData.token as string;
    const [row] = await t.db.query<{ janus_instance: string; janus_room_id: string }>('SELECT janus_instance, janus_room_id FROM media_rooms WHERE meeting_id = $1', [m.id]);
    rooms.push({ instance: row!.janus_instance, roomId: Number(row!.janus_room_id) });
    const cookie = Object.entries(erik.cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    const raw = await RawMediaClient.open(`${base}/media/${m.id}?token=${encodeURIComponent(token)}`, cookie);
    const hello = await raw.waitFor((x) => x.videomote === 'connected');
    const { session, handle } = await raw.attach();
    const joined = await raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: hello.roomId } }, true);
    expect((joined.plugindata as { data: { videoroom: string } }).data.videoroom).toBe('joined');
    raw.close();
  }
  expect(rooms.map((r) => r.instance).sort()).toEqual([...urls].sort());
  // Each room exists only on its own instance.
  for (const r of rooms) {
    for (const url of urls) {
      const control = await t.app.media.pool.get(url);
      expect(await control.roomExists(r.roomId)).toBe(url === r.instance);
    }
  }
});
