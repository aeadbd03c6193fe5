import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectionIdOf, enter, framesOf, withoutMicrophone } from './support/call.ts';
import { ClientTopology, SERVER_ADDRESS, type Client } from './support/client-netns.ts';
import { movingBarClip } from './support/fake-camera.ts';
import { dataDirWithMeeting } from './support/seed.ts';
import { NetBench, selectedPaths } from './support/net-bench.ts';
import { startTurn, type RunningTurn } from './support/turn-server.ts';

// Short-lived TURN credentials in a real call: a page whose network lets no UDP through (media only through coturn
// over TCP) restarts its relayed connections when renewed credentials arrive, so that coturn allocates anew with
// them; the ones it joined with then expire without a gap in its media, and its call comes back through the relay
// after its link is cut and restored. The server is given 40-second
// credentials (TURN_CREDENTIAL_TTL_SECONDS) so that the expiry comes within the test.
vi.setConfig({ expect: { poll: { timeout: 60_000, interval: 250 } } });

const TTL_SECONDS = 40;

const bench = new NetBench();
let topology: ClientTopology;
let turn: RunningTurn;
let c1: Client;
let c2: Client; // UDP blocked: media only through TURN over TCP
let meeting: { id: string };
let erik: Page;
let karin: Page;

beforeAll(async () => {
  topology = await ClientTopology.create(2);
  [c1, c2] = topology.clients as [Client, Client];
  turn = await startTurn(SERVER_ADDRESS, SERVER_ADDRESS);
  const seeded = await dataDirWithMeeting(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'karin', role: 'PrivateContractor' },
    ],
    'Samtal med kortlivad TURN',
  );
  meeting = seeded.meeting;
  await bench.start({ TURN_URLS: turn.urls.join(','), TURN_SECRET: turn.secret, TURN_CREDENTIAL_TTL_SECONDS: String(TTL_SECONDS) }, { dataDir: seeded.dataDir });
  const fakeCamera = ['--use-fake-device-for-media-stream=fps=5', `--use-file-for-fake-video-capture=${movingBarClip({ width: 160, height: 90, fps: 5 })}`];
  c2.blockUdp();
  const [b1, b2] = (await Promise.all([c1.launch(bench.server.url, fakeCamera), c2.launch(bench.server.url, fakeCamera)])) as [Browser, Browser];
  bench.browser = b1;
  [erik, karin] = await Promise.all([bench.person('erik', b1), bench.person('karin', b2)]);
  for (const p of [erik, karin]) await withoutMicrophone(p);
}, 300_000);

afterAll(async () => {
  await bench.stop();
  await topology?.close();
  await turn?.stop();
});

/** The TURN usernames (`expiry:user`) each of the page's peer connections is configured with now. */
const turnNames = (p: Page): Promise<string[]> =>
  p.evaluate(() => {
    const w = window as unknown as { __videomoteTest: { session: { peerConnections(): { pc: RTCPeerConnection }[] } } };
    const names: string[] = [];
    for (const pc of new Set(w.__videomoteTest.session.peerConnections().map((x) => x.pc))) {
      for (const s of pc.getConfiguration().iceServers ?? []) if (s.username) names.push(s.username);
    }
    return names;
  });

/** The expiries (seconds) in the usernames of `user`'s successful Allocate requests, from coturn's log. */
const allocationsOf = (log: string, user: string): number[] =>
  [...log.matchAll(/user <(\d+):([^>]*)>: incoming packet ALLOCATE processed, success/g)].filter((m) => m[2] === user).map((m) => Number(m[1]));

describe('TURN credentials renewed during a call', () => {
  it('reach the page\'s peer connections before the first ones expire, and the call comes back through the relay after a link cut past that expiry', async () => {
    await Promise.all([erik, karin].map((p) => enter(p, meeting.id)));
    await karin.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 60_000 });
    const karinCamera = `camera-${await connectionIdOf(karin)}`;
    await expect.poll(() => framesOf(erik, karinCamera)).toBeGreaterThan(5);
    expect(new Set(await selectedPaths(karin))).toEqual(new Set(['relay/tcp']));
    const [first] = await turnNames(karin);
    const firstExpiry = Number(first!.split(':')[0]) * 1000;
    expect(firstExpiry).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000 + 1_000);

    // Up to and past the first credentials' expiry, and one renewal beyond: Karin's camera keeps reaching Erik, with
    // no gap (read every 3 s), while the renewals restart her relayed connections onto new allocations.
    const user = first!.slice(first!.indexOf(':') + 1);
    const gaps: string[] = [];
    for (let last = await framesOf(erik, karinCamera); Date.now() < firstExpiry + (TTL_SECONDS / 2) * 1000 + 3_000; ) {
      await new Promise((r) => setTimeout(r, 3_000));
      const now = await framesOf(erik, karinCamera);
      if (now <= last) gaps.push(`${new Date().toISOString()}: ${last} -> ${now}`);
      last = now;
    }
    expect(gaps).toEqual([]);
    // The page's peer connections hold renewed credentials, and coturn made allocations with them (its log names
    // the username of each request): the ones it relays through now are not those of the expired credentials.
    const renewed = await turnNames(karin);
    expect(renewed.length).toBeGreaterThan(0);
    for (const name of renewed) expect(Number(name.split(':')[0]) * 1000).toBeGreaterThan(Date.now());
    const allocated = allocationsOf(turn.output(), user);
    expect(allocated.filter((e) => e * 1000 > firstExpiry), turn.output().slice(-3000)).not.toEqual([]);
    expect(new Set(await selectedPaths(karin))).toEqual(new Set(['relay/tcp']));

    // Karin's link cut for 5 s and restored (UDP still blocked): media comes back through the relay.
    c2.cut();
    await new Promise((r) => setTimeout(r, 5_000));
    c2.restore();
    c2.blockUdp();
    const before = await framesOf(erik, karinCamera);
    await expect.poll(() => framesOf(erik, karinCamera), { timeout: 90_000 }).toBeGreaterThan(before + 5);
    expect(new Set(await selectedPaths(karin))).toEqual(new Set(['relay/tcp']));
  }, 300_000);
});
