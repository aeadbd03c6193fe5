/**
 * What the synthetic participants (packages/synthetic) cost the machine that runs them: CPU time of this process
 * (all its threads: libdatachannel's, the WebCrypto pool's and the event loop) per RTP packet sent by publishers and
 * per packet received by a viewer, against the real server and its Janus in a private network namespace. Two
 * rounds of publishers: frames sealed with the meeting key (as always in a meeting), and sent as they are (the cost
 * of the sealing alone, by difference: Janus does not look inside). Prints one JSON line per round.
 *
 *   npx tsx bench/synthetic-cost.ts [publishers=4] [seconds=15]
 */
import { insidePrivateNetns, runInPrivateNetns } from './private-netns.ts';

if (!insidePrivateNetns()) {
  // No page is loaded here: no web build is needed (runInPrivateNetns makes one unless WEB_DIST is given).
  process.env.WEB_DIST ??= 'unused';
  runInPrivateNetns(import.meta.url, process.argv.slice(2));
}

const { startServer } = await import('../e2e/support/server.ts');
const { dataDirWithMeeting } = await import('../e2e/support/seed.ts');
const { testPin } = await import('../e2e/support/fake-camera.ts');
const { SyntheticParticipant } = await import('@videomote/synthetic/participant');
const { SyntheticViewer } = await import('@videomote/synthetic/viewer');
const { loadClips } = await import('@videomote/synthetic/clips');
const { Pacer } = await import('@videomote/synthetic/pacer');

const publishers = Number(process.argv[2] ?? 4);
const seconds = Number(process.argv[3] ?? 15);
const people = Array.from({ length: publishers + 1 }, (_, i) => ({ pin: testPin(40 + i), name: `Syntet Person${String.fromCharCode(65 + i)}` }));
const { dataDir, meeting } = await dataDirWithMeeting(
  people.map((p, i) => ({ pin: p.pin, displayName: p.name, role: i === 0 ? ('EmploymentOfficer' as const) : ('JobSeeker' as const), isAdmin: i === 0 })),
  'Syntetisk kostnad',
);
const server = await startServer({}, { dataDir });
const clips = loadClips();
const pacer = new Pacer();
const cpuOver = async (ms: number) => {
  const start = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(start);
  return used.user + used.system;
};
try {
  const joined = [];
  for (const p of people) joined.push(await SyntheticParticipant.join({ base: server.url, meetingId: meeting.id, login: p }));
  const [watcher, ...senders] = joined;
  // Idle: joined, nothing flowing (the baseline of timers and sockets).
  const idleUs = await cpuOver(5_000);
  const pubs = [];
  for (const s of senders) pubs.push(await s!.publish(clips, pacer));
  for (const round of ['sealed', 'plain'] as const) {
    for (const s of senders) s!.sealer.endToEnd = round === 'sealed';
    await new Promise((r) => setTimeout(r, 3_000));
    pacer.resetFigures();
    const sent0 = pubs.reduce((n, p) => n + p.stats.packetsSent, 0);
    const us = await cpuOver(seconds * 1000);
    const sent = pubs.reduce((n, p) => n + p.stats.packetsSent, 0) - sent0;
    const baseline = (idleUs / 5_000) * seconds * 1000;
    console.log(JSON.stringify({ round, publishers, packetsPerSecond: Math.round(sent / seconds), cpuPercent: Math.round(us / seconds / 100) / 100, usPerPacketSent: Math.round(((us - baseline) / sent) * 10) / 10, pacer: pacer.report() }));
  }
  // A viewer of every publisher's top layer: the cost per packet received, on top of the publishers' (measured above, plain).
  const viewer = await SyntheticViewer.subscribe(watcher!, pubs.map((p) => ({ feed: p.feedId, substream: 2, temporal: 2 })), clips);
  await new Promise((r) => setTimeout(r, 3_000));
  const received = () => Object.values(viewer.counts()).reduce((n, c) => n + c.packets, 0);
  const sent0 = pubs.reduce((n, p) => n + p.stats.packetsSent, 0);
  const got0 = received();
  const us = await cpuOver(seconds * 1000);
  const sent = pubs.reduce((n, p) => n + p.stats.packetsSent, 0) - sent0;
  const got = received() - got0;
  console.log(JSON.stringify({ round: 'viewer (plain senders)', packetsSentPerSecond: Math.round(sent / seconds), packetsReceivedPerSecond: Math.round(got / seconds), cpuPercent: Math.round(us / seconds / 100) / 100 }));
  viewer.close();
  for (const p of joined) p.close();
} finally {
  pacer.stop();
  await server.stop();
}
process.exit(0);
