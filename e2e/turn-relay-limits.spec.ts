import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTurn, type RunningTurn } from './support/turn-server.ts';
import { turnSession } from './support/turn-client.ts';
import { turnCredentials } from '../apps/server/src/modules/media/turn-credentials.ts';

// What a TURN credential lets its holder reach: coturn with the project's deploy/coturn/turnserver.conf, the
// nftables table deploy/coturn/turn-to-janus.nft loaded as an operator loads it, and a "Janus host" address with
// listeners on a port inside Janus's RTP range and on ports outside it (as Janus's API and admin ports are).
// Runs inside the test run's own network namespace (scripts/in-netns.sh); the addresses are RFC 2544's and exist
// only there. No browser: a minimal TURN client (support/turn-client.ts) asks what a browser could ask.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JANUS_HOST = '198.18.9.1';
const TURN_HOST = '198.18.9.2';
const RTP_RANGE = '20000-20100';
const IN_RANGE = 20050;
const OUTSIDE = 8188; // Janus's WebSocket API port

let turn: RunningTurn;
const received = new Map<number, number>();
let tcpAccepted = 0;
const closers: (() => void)[] = [];

beforeAll(async () => {
  for (const address of [JANUS_HOST, TURN_HOST]) execFileSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'vmifb0']);
  execFileSync('nft', ['-D', `turn_relay=${TURN_HOST}`, '-D', `janus_hosts={ ${JANUS_HOST} }`, '-D', `rtp_ports=${RTP_RANGE}`, '-f', path.join(root, 'deploy/coturn/turn-to-janus.nft')]);
  for (const port of [IN_RANGE, OUTSIDE]) {
    const s = dgram.createSocket('udp4');
    s.on('message', () => received.set(port, (received.get(port) ?? 0) + 1));
    await new Promise<void>((resolve) => s.bind(port, JANUS_HOST, resolve));
    closers.push(() => s.close());
  }
  const tcp = net.createServer((c) => {
    tcpAccepted += 1;
    c.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(OUTSIDE, JANUS_HOST, resolve));
  closers.push(() => tcp.close());
  turn = await startTurn(TURN_HOST, JANUS_HOST);
});

afterAll(async () => {
  for (const close of closers) close();
  await turn?.stop();
});

const credentials = (user: string) => turnCredentials(turn.secret, user, Date.now() + 10 * 60_000);

describe('what a TURN credential reaches on a media server', () => {
  it('refuses a TCP relay: no TCP connection from coturn reaches any port of the Janus host', async () => {
    const { username, credential } = credentials('tcp-relay-test');
    const session = await turnSession(TURN_HOST, 'tcp', username, credential);
    try {
      const allocation = await session.allocate('tcp');
      // Had the allocation been granted, try what an attacker would: a TCP connection to Janus's API port.
      const connect = allocation.ok ? await session.connect(JANUS_HOST, OUTSIDE) : null;
      await new Promise((r) => setTimeout(r, 500));
      expect({ allocation, connect, tcpAccepted }).toEqual({ allocation: { ok: false, code: 442, reason: expect.any(String) }, connect: null, tcpAccepted: 0 });
    } finally {
      session.close();
    }
  });

  it('relays UDP to Janus\'s RTP port range and nothing outside it', async () => {
    const { username, credential } = credentials('udp-relay-test');
    const session = await turnSession(TURN_HOST, 'udp', username, credential);
    try {
      expect(await session.allocate('udp')).toEqual({ ok: true });
      expect(await session.createPermission(JANUS_HOST)).toEqual({ ok: true });
      for (let i = 0; i < 5; i++) {
        session.sendTo(JANUS_HOST, IN_RANGE, Buffer.from(`rtp-${i}`));
        session.sendTo(JANUS_HOST, OUTSIDE, Buffer.from(`api-${i}`));
      }
      // The in-range port shows that the relay itself works; the one outside must have had nothing.
      await expect.poll(() => received.get(IN_RANGE) ?? 0, { timeout: 5_000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(received.get(OUTSIDE) ?? 0).toBe(0);
    } finally {
      session.close();
    }
  });
});
