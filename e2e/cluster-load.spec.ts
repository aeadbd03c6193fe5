import crypto from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChatMessageEvent } from '@videomote/contract/chat';
import { startCluster, type Cluster } from '../scripts/cluster/topology.ts';
import { openPostgres } from '../apps/server/src/platform/db.ts';
import { pinCrypto } from '../apps/server/src/platform/crypto.ts';
import { insertMeeting, type FixtureParticipant } from '../apps/server/src/testing/fixtures.ts';
import { startOfLocalDay } from '@videomote/contract/meeting-rules';
import { underWayNow } from './support/seed.ts';
import { testPin } from './support/fake-camera.ts';
import { Browserless } from '@videomote/synthetic/http-login';
import { SyntheticParticipant } from '@videomote/synthetic/participant';
import { SyntheticViewer } from '@videomote/synthetic/viewer';
import { SyntheticChat } from '@videomote/synthetic/chat-client';
import { loadClips } from '@videomote/synthetic/clips';
import { Pacer } from '@videomote/synthetic/pacer';

// The production topology (scripts/cluster/topology.ts: HAProxy with TLS, two app nodes, two Janus, PostgreSQL and
// a private Redis this test starts, never the machine's) under the load of three meetings of ten synthetic
// participants, half of them kept on each node by the proxy's stickiness cookie. In each meeting the officer (its
// moderator) publishes a camera and the nine others watch it (the lowest layer's base temporal layer, video only:
// the least generator CPU that still shows media flowing); all thirty have the chat open and each says something
// every second throughout. Then:
//  1. Redis is restarted (stopped and started empty on its port: it keeps nothing on disk): chat, and a moderator's
//     removal of a message sent on the other node, reach everybody again within 10 s.
//  2. app1 is killed with SIGKILL: every participant's media and chat are back within 10 s, through app2; the
//     booking made through app1 just before is still there.
// Last, counted by the server's message ids: no message the server accepted (its echo reached the sender) is missing
// from anybody in the meeting, and none arrived twice.
const SOCKET = '/var/run/postgresql/.s.PGSQL.5432';
const databaseUrl = process.env.CLUSTER_DATABASE_URL ?? (fs.existsSync(SOCKET) ? 'postgres://postgres@/test?host=/var/run/postgresql' : '');
// In `npm test` wherever PostgreSQL is reachable (its Unix socket, or CLUSTER_DATABASE_URL). It was opt-in after its runs
// of 1 December failed three times in four: viewers whose presenter came back on the other node never received again
// (the synthetic viewer gave up: fixed in packages/synthetic/src/viewer.ts), and messages said as Redis stopped went
// missing at some participants. The Redis chat store could lose such messages three ways: stored in the restarted
// Redis before a node had subscribed again, stored in one Redis and published into the next, or dropped from a
// reconnecting client's list by a new history dated back over the old one's messages (the first and last shown by
// apps/server/src/modules/chat/redis-chat-store.api.test.ts). Its runs since: docs/benchmark-history.md.
if (!databaseUrl) console.log(`SKIPPED: the cluster load test needs PostgreSQL (no ${SOCKET}; set CLUSTER_DATABASE_URL)`);

const MEETINGS = 3;
const PER_MEETING = 10;
const BACK_MS = 10_000;
/**
 * Each participant says something this often: ten in a meeting make five messages a second, so the ~30 s after the
 * Redis restart stay within the 200 the server keeps (CHAT_HISTORY_LIMIT), which the final count reads back.
 */
const SAY_MS = 2_000;
const schema = `cluster_load_${crypto.randomBytes(6).toString('hex')}`;
const pinKey = crypto.randomBytes(32).toString('base64');
const clips = loadClips();
const pacer = new Pacer();

interface Person {
  meeting: number;
  index: number;
  node: 'app1' | 'app2';
  participant: SyntheticParticipant;
  viewer: SyntheticViewer | null;
  chat: SyntheticChat;
  /** Texts this person sent, in order. */
  said: string[];
}

let cluster: Cluster;
const meetings: { id: string; people: { pin: string; name: string }[] }[] = [];
const people: Person[] = [];
let saying: ReturnType<typeof setInterval> | null = null;

beforeAll(async () => {
  if (!databaseUrl) return;
  cluster = await startCluster({ databaseUrl, schema, pinKey, iceEnforce: process.env.JANUS_ICE_ENFORCE ?? null, log: () => {} });
  // The synthetic participants trust the proxy's test CA as Chromium trusts its key in cluster-failover.spec.ts.
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), fs.readFileSync(cluster.caFile, 'utf8')]);
  const db = openPostgres(databaseUrl, { schema, max: 1 });
  try {
    for (let m = 0; m < MEETINGS; m++) {
      const folk = Array.from({ length: PER_MEETING }, (_, i) => ({ pin: testPin(100 + m * PER_MEETING + i), name: `Deltagare ${m + 1}-${i + 1}` }));
      const participants: FixtureParticipant[] = folk.map((f, i) => ({ pin: f.pin, displayName: f.name, role: i === 0 ? 'EmploymentOfficer' : 'JobSeeker', isAdmin: i === 0 }));
      const { id } = await insertMeeting(db, pinCrypto(Buffer.from(pinKey, 'base64')), { title: `Möte under last ${m + 1}`, type: 0, ...underWayNow(), participants });
      meetings.push({ id, people: folk });
    }
  } finally {
    await db.close();
  }
}, 240_000);

afterAll(async () => {
  if (saying) clearInterval(saying);
  for (const p of people) {
    p.chat.close();
    p.viewer?.close();
    p.participant.close();
  }
  pacer.stop();
  await cluster?.stop();
});

/** One participant through the proxy: login, the lobby's token, /media, the chat; the officer publishes, the rest watch. */
async function join(m: number, index: number, feeds: number[]): Promise<Person> {
  const who = meetings[m]!.people[index]!;
  const node = (m * PER_MEETING + index) % 2 === 0 ? 'app1' : 'app2';
  const forwardedFor = `10.52.${m}.${index + 1}`;
  const participant = await SyntheticParticipant.join({ base: cluster.url, meetingId: meetings[m]!.id, login: { pin: who.pin, name: who.name }, forwardedFor, cookies: { vm_node: node } });
  let viewer: SyntheticViewer | null = null;
  if (index === 0) {
    const camera = await participant.publish(clips, pacer);
    feeds[m] = camera.feedId;
    participant.keepConnected((p) => p.republish());
  } else {
    const wanted = (feed: number) => [{ feed, mid: '1', substream: 0, temporal: 0 }];
    viewer = await SyntheticViewer.subscribe(participant, wanted(feeds[m]!), clips);
    viewer.followCamera((c) => c.moderator, wanted, feeds[m]!);
  }
  const chat = await SyntheticChat.open({ base: cluster.url, meetingId: meetings[m]!.id, cookie: () => participant.http.jar.header(), headers: { 'x-forwarded-for': forwardedFor } });
  return { meeting: m, index, node, participant, viewer, chat, said: [] };
}

/** How long after `since` (performance.now()) each viewer's video came back: the end of its last gap begun after it, or 0. */
function mediaBack(since: number): number[] {
  return people.filter((p) => p.viewer).map((p) => Math.max(0, ...p.viewer!.gaps.filter((g) => g.from >= since - 1_000).map((g) => g.to - since)));
}

/** Each person's first message said after `since` (Date.now()) that the server accepted: when its echo came, or null. */
function chatBack(since: number, sentAt: Map<string, number>, echoedAt: Map<string, number>): (number | null)[] {
  return people.map((p) => {
    const after = p.said.filter((t) => sentAt.get(t)! >= since && echoedAt.has(t));
    return after.length ? Math.min(...after.map((t) => echoedAt.get(t)!)) - since : null;
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${Math.round(s[s.length >> 1] ?? NaN)} ms, slowest ${Math.round(s.at(-1) ?? NaN)} ms`;
};

it.skipIf(!databaseUrl)(`keeps ${MEETINGS} meetings of ${PER_MEETING} on two app nodes through the loss of a node and a Redis restart`, async () => {
  const t0 = Date.now();
  // The officers first (the cameras), then everybody else, a few at a time.
  const feeds: number[] = [];
  for (let m = 0; m < MEETINGS; m++) people.push(await join(m, 0, feeds));
  const rest = Array.from({ length: MEETINGS * (PER_MEETING - 1) }, (_, k) => ({ m: Math.floor(k / (PER_MEETING - 1)), i: (k % (PER_MEETING - 1)) + 1 }));
  await Promise.all(Array.from({ length: 6 }, async () => {
    for (let job = rest.shift(); job; job = rest.shift()) people.push(await join(job.m, job.i, feeds));
  }));
  const joined = Date.now();
  expect(people.filter((p) => p.node === 'app1')).toHaveLength((MEETINGS * PER_MEETING) / 2);
  await expect.poll(() => people.filter((p) => p.viewer && p.viewer.videoPackets > 0).length, { timeout: 15_000 }).toBe(MEETINGS * (PER_MEETING - 1));

  // Everybody talks, a message every SAY_MS each, from now to the end; the echo of each says the server took it.
  const sentAt = new Map<string, number>();
  const echoedAt = new Map<string, number>();
  let seq = 0;
  saying = setInterval(() => {
    seq += 1;
    for (const p of people) {
      const text = `m${p.meeting} p${p.index} #${seq}`;
      if (p.chat.say(text)) {
        p.said.push(text);
        sentAt.set(text, Date.now());
      }
    }
  }, SAY_MS);
  const watchEchoes = setInterval(() => {
    for (const p of people) for (const t of p.chat.accepted.keys()) if (!echoedAt.has(t)) echoedAt.set(t, Date.now());
  }, 50);
  await new Promise((r) => setTimeout(r, 2_000));

  // ---- 1. Redis restarted under the same load ----
  const redisStopped = Date.now();
  await cluster.restartRedis();
  const redisBack = Date.now();
  // A moderator's removal across nodes: the officer of meeting 1 removes a message said after the restart by one of
  // the meeting's people on the other node.
  const officer = people.find((p) => p.meeting === 0 && p.index === 0)!;
  const target = people.find((p) => p.meeting === 0 && p.index > 0 && p.node !== officer.node)!;
  let removedId = '';
  await expect
    .poll(
      () => {
        const text = target.said.find((t) => sentAt.get(t)! >= redisBack && target.chat.accepted.has(t) && officer.chat.messages.has(target.chat.accepted.get(t)!));
        return text ? (removedId = target.chat.accepted.get(text)!) : '';
      },
      { timeout: BACK_MS, interval: 100 },
    )
    .not.toBe('');
  expect(officer.chat.remove(removedId)).toBe(true);
  const meeting0 = people.filter((p) => p.meeting === 0);
  await expect.poll(() => meeting0.filter((p) => p.chat.removed.has(removedId)).length, { timeout: BACK_MS, interval: 100 }).toBe(meeting0.length);
  const removedEverywhere = Date.now();
  await new Promise((r) => setTimeout(r, Math.max(0, redisStopped + BACK_MS + 1_000 - Date.now())));
  const redisChat = chatBack(redisStopped, sentAt, echoedAt);
  console.log(
    `Redis restarted (down ${redisBack - redisStopped} ms): chat back ${stats(redisChat.filter((x): x is number => x !== null))} (${redisChat.filter((x) => x !== null).length}/${people.length}); ` +
      `a removal across nodes reached all ${meeting0.length} of the meeting ${removedEverywhere - redisStopped} ms after the stop`,
  );
  expect(redisChat.every((x) => x !== null && x < BACK_MS), JSON.stringify(redisChat)).toBe(true);
  expect(removedEverywhere - redisStopped).toBeLessThan(BACK_MS);

  // A booking made through app1 (Erik held there by the proxy's cookie) just before it dies.
  const erik = new Browserless(cluster.url, {}, { vm_node: 'app1' });
  await erik.login({ persona: 'erik' });
  const start = new Date(startOfLocalDay(new Date(), 1).getTime() + 10 * 3600_000);
  const booked = await erik.api<{ data: { id: string } }>('POST', '/api/meeting', {
    title: 'Bokat före nodens död',
    type: 0,
    startTime: start.toISOString(),
    endTime: new Date(start.getTime() + 3600_000).toISOString(),
    participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }],
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  await new Promise((r) => setTimeout(r, 2_000));

  // ---- 2. app1 killed outright ----
  const app1 = cluster.nodes.find((n) => n.server === 'app1')!;
  const nodeKilled = Date.now();
  const nodeKilledPerf = performance.now();
  await app1.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, BACK_MS + 2_000));
  const nodeMedia = mediaBack(nodeKilledPerf);
  const nodeChat = chatBack(nodeKilled, sentAt, echoedAt);
  const flowing = people.filter((p) => p.viewer && performance.now() - p.viewer.lastVideoAt < 1_000).length;
  const afterKill = await erik.api<{ data: { title: string } }>('GET', `/api/meeting/${booked.body.data.id}`);
  console.log(
    `app1 killed (${MEETINGS * PER_MEETING} participants, ${people.filter((p) => p.node === 'app1').length} on it): media back ${stats(nodeMedia)} (${flowing}/${nodeMedia.length} viewers receiving ` +
      `12 s after; ${people.filter((p) => p.participant.reconnects > 0).length} media connections started afresh); chat back ${stats(nodeChat.filter((x): x is number => x !== null))} ` +
      `(${nodeChat.filter((x) => x !== null).length}/${people.length}, ${people.filter((p) => p.chat.welcomes > 1).length} chat sockets reconnected); booking ${afterKill.status}`,
  );
  const stalled = people.filter((p) => p.viewer && performance.now() - p.viewer.lastVideoAt >= 1_000);
  const cameras = (p: Person) => [...p.participant.socket.connections.values()].filter((c) => c.moderator).map((c) => `${c.connectionId.slice(0, 8)}:${c.feedId}`);
  const why = stalled.map((p) => `m${p.meeting} p${p.index} on ${p.node}: following ${p.viewer!.following}, silent ${Math.round(performance.now() - p.viewer!.lastVideoAt)} ms, reconnects ${p.participant.reconnects}, cameras ${cameras(p).join(' ')}`);
  expect(flowing, why.join('; ')).toBe(nodeMedia.length);
  expect(Math.max(...nodeMedia)).toBeLessThan(BACK_MS);
  expect(nodeChat.every((x) => x !== null && x < BACK_MS), JSON.stringify(nodeChat)).toBe(true);
  expect(afterKill.status).toBe(200);
  expect(afterKill.body.data.title).toBe('Bokat före nodens död');

  // ---- the count: every accepted message, exactly once, at everybody in its meeting ----
  clearInterval(saying);
  saying = null;
  await new Promise((r) => setTimeout(r, 3_000));
  clearInterval(watchEchoes);
  let accepted = 0;
  const missing: string[] = [];
  /** Who missed a message, for the failure message. */
  const missedBy = new Set<Person>();
  const twice: string[] = [];
  // What the server took: every message whose echo reached its sender, and every message in the meeting's history in
  // Redis (what the server stored since the restart, echoed or not; the chat store's own key).
  const redis = new Redis(cluster.nodeEnv.REDIS_URL!);
  let storedOnly = 0;
  for (let m = 0; m < MEETINGS; m++) {
    const here = people.filter((p) => p.meeting === m);
    const ids = new Map<string, string>();
    for (const p of here) for (const [text, id] of p.chat.accepted) ids.set(id, text);
    for (const json of await redis.lrange(`vm:chat:${meetings[m]!.id}:history`, 0, -1)) {
      const stored = JSON.parse(json) as ChatMessageEvent;
      if (!ids.has(stored.id)) storedOnly += 1;
      ids.set(stored.id, stored.message);
    }
    accepted += ids.size;
    for (const p of here) {
      for (const [id, text] of ids) {
        if (p.chat.removed.has(id) || p.chat.messages.has(id)) continue;
        missing.push(`${text} at m${m} p${p.index}`);
        missedBy.add(p);
      }
      for (const [id, n] of p.chat.deliveries) if (n > 1) twice.push(`${ids.get(id) ?? id} ×${n} at m${m} p${p.index}`);
      const texts = [...p.chat.messages.values()].map((x) => x.message);
      if (new Set(texts).size !== texts.length) twice.push(`the same text under two ids at m${m} p${p.index}`);
    }
  }
  redis.disconnect();
  const said = people.reduce((n, p) => n + p.said.length, 0);
  console.log(`chat: ${said} messages said, ${accepted} accepted by the server (${storedOnly} of them stored but echoed to nobody); ${missing.length} missing somewhere, ${twice.length} delivered twice; test ${((Date.now() - t0) / 1000).toFixed(0)} s (joins ${((joined - t0) / 1000).toFixed(0)} s)`);
  // Who missed something, and when each of them last had a WELCOME (a socket opened afresh) against when Redis stopped.
  const welcomes = [...missedBy].map((p) => `m${p.meeting} p${p.index}: last WELCOME ${p.chat.welcomedAt - redisStopped} ms after Redis stopped`);
  expect(missing.slice(0, 10), welcomes.join('; ')).toEqual([]);
  expect(twice.slice(0, 10)).toEqual([]);
}, 240_000);
