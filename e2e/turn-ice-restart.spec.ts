import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectionIdOf, enter, framesOf, withoutMicrophone } from './support/call.ts';
import { ClientTopology, SERVER_ADDRESS, type Client } from './support/client-netns.ts';
import { movingBarClip } from './support/fake-camera.ts';
import { dataDirWithMeeting } from './support/seed.ts';
import { NetBench, selectedPaths } from './support/net-bench.ts';
import { startTurn, type RunningTurn } from './support/turn-server.ts';

// Short-lived TURN credentials in a real call: a page whose network lets no UDP through (media only through coturn
// over TCP) holds renewed credentials on every peer connection before the ones it joined with expire, which expire
// without a gap in its media; an ICE restart then makes a new coturn allocation under the renewed username, whose
// own expiry passes without a gap too; and its call comes back through the relay after its link is cut and restored. The server is given 40-second
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
  // Verbose: its log then names the username of each request (the allocations read below).
  turn = await startTurn(SERVER_ADDRESS, SERVER_ADDRESS, { verbose: true });
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

    // Up to and past the first credentials' expiry: Karin's camera keeps reaching Erik with no gap (read every 3 s).
    const user = first!.slice(first!.indexOf(':') + 1);
    const gapsUntil = async (until: number): Promise<string[]> => {
      const gaps: string[] = [];
      for (let last = await framesOf(erik, karinCamera); Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 3_000));
        const now = await framesOf(erik, karinCamera);
        if (now <= last) gaps.push(`${new Date().toISOString()}: ${last} -> ${now}`);
        last = now;
      }
      return gaps;
    };
    expect(await gapsUntil(firstExpiry + 2_000)).toEqual([]);
    // Her peer connections hold renewed credentials.
    const renewed = await turnNames(karin);
    expect(renewed.length).toBeGreaterThan(0);
    for (const name of renewed) expect(Number(name.split(':')[0]) * 1000).toBeGreaterThan(Date.now());
    const allocatedBefore = allocationsOf(turn.output(), user).length;
    expect(allocatedBefore, 'her allocations under the first credentials, in coturn\'s log').toBeGreaterThan(0);

    // An ICE restart of each of her connections, as the page makes after an address change or a resumed socket:
    // coturn allocates anew under the renewed username (its log names the username of each request), and her media
    // moves to it without a gap; then the credentials of that allocation expire too, and the call goes on.
    await karin.evaluate(() => {
      type Restartable = { attached: { recovery: { restartNow(): void } | null } | null };
      const s = (window as unknown as { __videomoteTest: { session: { camera: Restartable; screen: Restartable; remote?: { networkChanged(): void } | null } } })
        .__videomoteTest.session;
      for (const p of [s.camera, s.screen]) p.attached?.recovery?.restartNow();
      s.remote?.networkChanged();
    });
    await expect
      .poll(() => allocationsOf(turn.output(), user).slice(allocatedBefore).filter((e) => e * 1000 > firstExpiry), {
        timeout: 30_000,
        message: `a new allocation under a renewed username; ${user}'s allocations so far: ${allocationsOf(turn.output(), user).join(', ')}`,
      })
      .not.toEqual([]);
    const inUse = Math.max(...allocationsOf(turn.output(), user)) * 1000;
    expect(new Set(await selectedPaths(karin))).toEqual(new Set(['relay/tcp']));
    expect(await gapsUntil(inUse + 5_000)).toEqual([]);
    console.log(`first credentials expired ${new Date(firstExpiry).toISOString()}; allocations of ${user}: ${allocationsOf(turn.output(), user).join(', ')}`);

    // Karin's link cut for 5 s and restored (UDP still blocked): media comes back through the relay.
    c2.cut();
    await new Promise((r) => setTimeout(r, 5_000));
    c2.restore();
    c2.blockUdp();
    const before = await framesOf(erik, karinCamera);
    await expect.poll(() => framesOf(erik, karinCamera), { timeout: 90_000 }).toBeGreaterThan(before + 5);
    expect(new Set(await selectedPaths(karin))).toEqual(new Set(['relay/tcp']));
  }, 420_000);
});
