/**
 * The join bench's synthetic publishers in a process of their own (bench/media-call.ts starts it, one per phase):
 * in the bench's own process the generator shared its event loop with Playwright driving the joiner's page, and
 * that loop was blocked for up to 0.6 s while the page opened, which the pacer rightly counted as stalls. Here the
 * publishers' clock answers to nothing else.
 *
 * Argument: JSON, `{ "product": { base, meetingId, logins } }` (through the product's path, as people) or
 * `{ "bare": { janusUrl, token, roomId, count } }` (@videomote/synthetic/bare-janus, a bench baseline); `audio`: how
 * many of them also send Opus. Prints `ready` once all publish; then answers lines on stdin: `reset` (the pacer's
 * figures and the CPU count start afresh), `report` (one JSON line: the pacer's report and this process's CPU, % of a
 * core, since the reset), `stop`.
 */
import readline from 'node:readline';
import { SyntheticParticipant } from '@videomote/synthetic/participant';
import { BareJanusParticipant } from '@videomote/synthetic/bare-janus';
import { loadClips } from '@videomote/synthetic/clips';
import { Pacer } from '@videomote/synthetic/pacer';
import type { Login } from '@videomote/synthetic/http-login';

type Config = { audio: number } & ({ product: { base: string; meetingId: string; logins: Login[] } } | { bare: { janusUrl: string; token: string; roomId: number; count: number } });
const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const clips = loadClips();
const pacer = new Pacer();
const people: { close(): void }[] = [];
const count = 'product' in config ? config.product.logins.length : config.bare.count;
// One after another, as people come in.
for (let i = 0; i < count; i++) {
  const who =
    'product' in config
      ? await SyntheticParticipant.join({ base: config.product.base, meetingId: config.product.meetingId, login: config.product.logins[i]! })
      : await BareJanusParticipant.join(config.bare);
  people.push(who);
  await who.publish(clips, pacer, { audio: i < config.audio });
}
let from = { cpu: process.cpuUsage(), at: performance.now() };
console.log('ready');
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'reset') {
    pacer.resetFigures();
    from = { cpu: process.cpuUsage(), at: performance.now() };
  } else if (line === 'report') {
    const used = process.cpuUsage(from.cpu);
    console.log(JSON.stringify({ pacer: pacer.report(), cpu: ((used.user + used.system) / 1e6 / ((performance.now() - from.at) / 1000)) * 100 }));
  } else if (line === 'stop') break;
}
for (const p of people) p.close();
pacer.stop();
process.exit(0);
