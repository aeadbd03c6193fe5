import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { clusterKey, MESSAGE_MAX_AGE_MS, signMessage } from './cluster-bus.ts';
import { sha256 } from './crypto.ts';

// Messages forged straight into Redis, as anyone who can write to it could: the node acts on none of them and
// counts each. Needs a real Redis (TEST_REDIS_URL, set by .ci/run).
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.log('SKIPPED: cluster bus signatures (TEST_REDIS_URL is not set; .ci/run sets it)');

const SECRET = crypto.randomBytes(32).toString('base64');
const CHANNEL = 'vm:cluster:sessions-ended';

describe.skipIf(!redisUrl)('the cluster bus through a real Redis', () => {
  let t: TestApp;
  let attacker: Redis;
  const heard: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ env: { REDIS_URL: redisUrl!, CLUSTER_SECRET: SECRET } });
    await t.app.deps.bus.ready();
    t.app.deps.sessions.onEnded((hash) => heard.push(hash));
    attacker = new Redis(redisUrl!);
  });
  afterAll(async () => {
    attacker?.disconnect();
    await t?.close();
  });

  const dropped = async (reason: string) =>
    Number(new RegExp(`^videomote_cluster_messages_dropped_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec((await t.app.internal.inject('/metrics')).body)?.[1] ?? 0);

  /** What another node of ours sends: signed with the cluster key. Also the barrier: Redis keeps one publisher's order. */
  const signed = (message: string, key = clusterKey(SECRET, Buffer.alloc(32)), at = Date.now(), from = 'node-b') =>
    JSON.stringify({ from, at, message, mac: signMessage(key, 'sessions-ended', from, at, message) });
  async function sendThenBarrier(...raws: string[]): Promise<void> {
    const marker = `marker-${crypto.randomUUID()}`;
    for (const raw of raws) await attacker.publish(CHANNEL, raw);
    await attacker.publish(CHANNEL, signed(marker));
    const until = Date.now() + 5_000;
    while (!heard.includes(marker)) {
      if (Date.now() > until) throw new Error('the signed marker never arrived');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('drops and counts an unsigned, a forged, a wrongly keyed and a replayed logout; acts on a signed one', async () => {
    // A real session: a forged "logout" of it would close its /chat and /media sockets on every node.
    const erik = await t.as('erik');
    const victim = sha256(erik.cookies.vm_session!);
    const before = { unsigned: await dropped('unsigned'), bad: await dropped('bad-signature'), stale: await dropped('stale'), malformed: await dropped('malformed') };

    const forgedAt = Date.now();
    await sendThenBarrier(
      // The format of before: no signature at all.
      JSON.stringify({ from: 'attacker', message: victim }),
      // A made-up signature, and a real one over another message.
      JSON.stringify({ from: 'attacker', at: forgedAt, message: victim, mac: 'A'.repeat(43) }),
      JSON.stringify({ ...JSON.parse(signed('something else')), message: victim }),
      // Signed, but under another key (another cluster's secret).
      signed(victim, clusterKey(crypto.randomBytes(32).toString('base64'), Buffer.alloc(32))),
      // Signed correctly, but captured earlier and replayed now.
      signed(victim, undefined, Date.now() - MESSAGE_MAX_AGE_MS - 5_000),
      'not json',
    );
    expect(heard).not.toContain(victim);
    expect(await dropped('unsigned')).toBe(before.unsigned + 1);
    expect(await dropped('bad-signature')).toBe(before.bad + 3);
    expect(await dropped('stale')).toBe(before.stale + 1);
    expect(await dropped('malformed')).toBe(before.malformed + 1);
    // The session is untouched.
    expect((await erik.get('/api/login/keepalive')).statusCode).toBe(200);

    // A message another node signed is acted on.
    await sendThenBarrier(signed(victim));
    expect(heard).toContain(victim);
  });
});
