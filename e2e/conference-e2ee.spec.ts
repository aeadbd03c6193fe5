import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { JanusControl } from '../apps/server/src/modules/media/janus/janus-control.ts';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN, KARIN_BY_PIN } from './support/booking.ts';
import { apiCall, book, CallBench, connectionIdOf, enter, keepsDecoding } from './support/call.ts';

// End-to-end encryption of the call (conference spec §9) through the real server, the embedded Janus and three
// Chromiums' encoded transforms: Erik and Jonna decode each other; Karin is admitted like them (same capabilities,
// same room) but a man in the middle of her page replaces the key the server hands her, so she holds only a wrong
// one. She receives the packets and decodes nothing. Then she is removed from the booking: the key is replaced for
// the two left, who go on decoding under the new one. Last, Jonna in a browser without encoded transforms: the call
// works in transit-only protection while she is in it, and both screens say so.
vi.setConfig({ expect: { poll: { timeout: 45_000, interval: 500 } } });

const bench = new CallBench();
let erik: Page;
let jonna: Page;
let karin: Page;
let meeting: { id: string };

interface Counts {
  encrypted: number;
  decrypted: number;
  failed: number;
  unsent: number;
  plainSent: number;
  plainReceived: number;
  epoch: number;
}
const countsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __videomoteTest: { session: { e2ee: { counts(): Promise<Counts | null> } } } }).__videomoteTest.session.e2ee.counts());

/** Inbound video of the stream `camera-<connectionId>`: bytes on the wire and frames the decoder produced. */
const videoIn = (page: Page, connectionId: string) =>
  page.evaluate(async (id) => {
    const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
    let bytes = 0;
    let frames = 0;
    for (const { role, streamId, pc } of hook.session.peerConnections()) {
      if (role !== 'subscriber' || streamId !== `camera-${id}`) continue;
      (await pc.getStats()).forEach((s: { type: string; kind?: string; bytesReceived?: number; framesDecoded?: number }) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        bytes += s.bytesReceived ?? 0;
        frames += s.framesDecoded ?? 0;
      });
    }
    return { bytes, frames };
  }, connectionId);

/** What the meeting screen's error panel says ('' when it shows nothing). */
const panelText = async (page: Page) => (await page.locator('.error-panel').allTextContents()).join(' ');

const randomKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

/** Every media key the server hands this page (gettoken and the /media socket) is replaced by `wrong` before the page sees it. */
async function holdWrongKey(page: Page, wrong: string): Promise<void> {
  await page.route('**/api/meeting/gettoken', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { mediaKey: { key: string } } };
    body.data.mediaKey.key = wrong;
    await route.fulfill({ response, json: body });
  });
  await page.routeWebSocket(/\/media\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as Record<string, unknown>;
      ws.send(msg.videomote === 'mediaKey' ? JSON.stringify({ ...msg, key: wrong }) : String(m));
    });
  });
}

/** A control connection of our own to the server's embedded Janus, from the configuration it wrote in DATA_DIR. */
function embeddedJanus(dataDir: string): JanusControl {
  const read = (file: string, key: string) => new RegExp(`${key} = "?([^"\\n]+)"?`).exec(fs.readFileSync(path.join(dataDir, 'janus', file), 'utf8'))![1]!;
  return new JanusControl({
    id: 'test',
    url: `ws://127.0.0.1:${read('janus.transport.websockets.jcfg', 'ws_port')}`,
    tokenSecret: read('janus.jcfg', 'token_auth_secret'),
    roomAdminKey: read('janus.plugin.videoroom.jcfg', 'admin_key'),
  });
}

beforeAll(async () => {
  // Debug logging: whatever the server would ever log about a call is in the output the last test searches.
  await bench.start({ LOG_LEVEL: 'debug' });
  const other = await bench.launch({});
  const third = await bench.launch({});
  [erik, jonna, karin] = await Promise.all([bench.person('erik'), bench.person('jonna', other), bench.person('karin', third)]);
  meeting = await book(erik, { participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN, KARIN_BY_PIN] });
}, 300_000);
afterAll(async () => bench.stop());

describe('end-to-end encrypted media', () => {
  it('lets the participants decode each other, gives a key-less subscriber packets but no frame, replaces the key on removal, and falls back to transit-only for a browser that cannot encrypt', async () => {
    const wrong = randomKey();
    await holdWrongKey(karin, wrong);
    await Promise.all([enter(erik, meeting.id), enter(jonna, meeting.id), enter(karin, meeting.id)]);
    // Cameras on: nobody receives the video of a camera that is off (its tile shows initials).
    await Promise.all([erik, jonna].map((p) => p.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 })));
    const [erikId, jonnaId] = await Promise.all([connectionIdOf(erik), connectionIdOf(jonna)]);
    await keepsDecoding(erik, `camera-${jonnaId}`);
    await keepsDecoding(jonna, `camera-${erikId}`);

    // Karin is in the same room with the same capabilities: her subscriptions carry Erik's and Jonna's packets...
    await expect.poll(async () => (await videoIn(karin, erikId)).bytes > 20_000 && (await videoIn(karin, jonnaId)).bytes > 20_000).toBe(true);
    // ...and a few seconds later (many key frames on) her decoder has still produced nothing: no frame opened.
    await new Promise((r) => setTimeout(r, 4_000));
    const karinSees = [await videoIn(karin, erikId), await videoIn(karin, jonnaId)];
    const karinCounts = (await countsOf(karin))!;
    const erikCounts = (await countsOf(erik))!;
    console.log('karin receives', karinSees, 'karin transform', karinCounts, 'erik transform', erikCounts);
    expect(karinSees.map((s) => s.frames)).toEqual([0, 0]);
    expect(karinCounts.decrypted).toBe(0);
    expect(karinCounts.failed).toBeGreaterThan(50);
    // Erik's and Jonna's frames open only because they were sealed with the real key: a plain or differently keyed
    // frame does not authenticate (frame-crypto.test.ts).
    expect(erikCounts.encrypted).toBeGreaterThan(50);
    expect(erikCounts.decrypted).toBeGreaterThan(50);
    expect(erikCounts.epoch).toBe(1);

    // The room itself is end-to-end encrypted, as Janus lists it.
    const first = JSON.parse((await apiCall(erik, 'POST', '/api/meeting/gettoken', { meetingId: meeting.id })).body).data;
    const roomId = Number(first.tokenData.sessionId);
    const janus = embeddedJanus(bench.server.dataDir);
    try {
      expect(await janus.describeRoom(roomId)).toMatchObject({ room: roomId, require_e2ee: true });
    } finally {
      janus.close();
    }

    // Karin is removed from the booking: she is disconnected, and those left get the next key and keep decoding.
    const current = JSON.parse((await apiCall(erik, 'GET', `/api/meeting/${meeting.id}`)).body).data;
    const update = await apiCall(erik, 'PUT', '/api/meeting', {
      ...current,
      participants: current.participants.filter((p: { displayName: string }) => p.displayName !== KARIN_BY_PIN.displayName),
    });
    expect(update.status, update.body).toBe(200);
    await expect.poll(async () => [(await countsOf(erik))!.epoch, (await countsOf(jonna))!.epoch]).toEqual([2, 2]);
    await keepsDecoding(erik, `camera-${jonnaId}`);
    await keepsDecoding(jonna, `camera-${erikId}`);
    // A socket opened with a token handed out before the replacement is sent the current key as it connects.
    const keyAtConnect = await erik.evaluate(
      ({ id, token }) =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/media/${id}?token=${encodeURIComponent(token)}`, 'janus-protocol');
          const timer = setTimeout(() => reject(new Error('no media key within 10 s')), 10_000);
          ws.onmessage = (e) => {
            const m = JSON.parse(String(e.data)) as { videomote?: string; epoch?: number };
            if (m.videomote !== 'mediaKey') return;
            clearTimeout(timer);
            ws.close();
            resolve(m.epoch ?? 0);
          };
        }),
      { id: meeting.id, token: first.tokenData.token as string },
    );
    expect(keyAtConnect).toBe(2);

    // Jonna comes back in a browser without encoded transforms (as an old phone's). The call still works for her:
    // the server puts the meeting into transit-only protection while she is in it, both screens say so, and
    // Erik's frames go out and come in unencrypted by us. When she leaves, Erik encrypts again.
    const old = await jonna.context().newPage();
    await old.addInitScript(() => {
      delete (window as unknown as { RTCRtpScriptTransform?: unknown }).RTCRtpScriptTransform;
    });
    await jonna.close();
    await enter(old, meeting.id);
    await old.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 });
    const oldId = await connectionIdOf(old);
    await expect.poll(() => panelText(old)).toContain('Din webbläsare kan inte kryptera bild och ljud hela vägen');
    await expect.poll(() => panelText(erik)).toContain('En deltagare har en webbläsare som inte kan kryptera bild och ljud hela vägen');
    await keepsDecoding(old, `camera-${erikId}`);
    await keepsDecoding(erik, `camera-${oldId}`);
    const transit = (await countsOf(erik))!;
    console.log('erik while the meeting is transit-only', transit);
    expect(transit.plainSent).toBeGreaterThan(20);
    expect(transit.plainReceived).toBeGreaterThan(20);
    expect(await countsOf(old)).toBeNull();
    await old.close();
    await expect.poll(() => panelText(erik)).not.toContain('En deltagare har en webbläsare');
    const back = (await countsOf(erik))!;
    await new Promise((r) => setTimeout(r, 2_000));
    const later = (await countsOf(erik))!;
    expect(later.encrypted).toBeGreaterThan(back.encrypted + 20);
    expect(later.plainSent).toBe(back.plainSent);

    // What the server logged through all this (at debug level) holds neither key in any form.
    const keys = [first.mediaKey, JSON.parse((await apiCall(erik, 'POST', '/api/meeting/gettoken', { meetingId: meeting.id })).body).data.mediaKey];
    expect(keys.map((k) => k.epoch)).toEqual([1, 2]);
    const output = bench.server.output();
    expect(output.length).toBeGreaterThan(0);
    for (const { key } of keys) {
      const raw = Buffer.from(key as string, 'base64url');
      for (const form of [key as string, raw.toString('base64'), raw.toString('hex')]) expect(output).not.toContain(form);
    }
  });
});
