import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';

/**
 * Clients on networks of their own, on one machine (notes/real-network-tests.md). Inside the test run's network
 * namespace (the "server" namespace, where the server, Janus and coturn run) this makes a bridge holding
 * SERVER_ADDRESS and one named network namespace per client, each joined to the bridge by a veth pair and given an
 * address from RFC 2544's benchmarking range 198.18.0.0/15. A client's Chromium runs inside its namespace, so one
 * client's network can be changed alone: iptables rules in its namespace, its address moved, its link shaped.
 *
 * The names live in a private mount namespace (a tmpfs on /run/netns held by one `unshare --mount` process), so
 * they never show on the machine and two runs cannot collide; the test run need not itself be started with
 * `--mount`. Everything goes when `close()` ends that process and the bridge.
 *
 * Needs root, `ip` (iproute2), `nsenter`/`unshare` (util-linux) and `iptables-legacy`.
 */
export const SERVER_ADDRESS = '198.18.0.1';
const PREFIX = 15;
const BRIDGE = 'vmbr0';

export interface Client {
  /** Namespace name, e.g. `c1`. */
  readonly name: string;
  /** The client's current address on its link. */
  address: string;
  /** Runs a command inside the client's network namespace; answers its output. */
  exec(command: string[]): string;
  /** iptables (legacy) inside the client's namespace, e.g. `['-A', 'OUTPUT', '-p', 'udp', '-j', 'DROP']`. */
  iptables(args: string[]): void;
  /** Drops every packet to and from the client (its link is "down" for the others) until `restore()`. */
  cut(): void;
  /** Removes every iptables rule set in the client's namespace. */
  restore(): void;
  /** Blocks the client's UDP both ways (TCP still flows): a locked-down office network. */
  blockUdp(): void;
  /** Moves the client to another address on the same link, as a change of network does. */
  moveTo(address: string): void;
  /** A Chromium running inside the client's namespace, with the test flags and this origin treated as secure. */
  launch(origin: string, extraArgs?: string[]): Promise<Browser>;
}

export class ClientTopology {
  private readonly browsers: Browser[] = [];
  private readonly scripts: string[] = [];

  private constructor(
    private readonly keeper: ChildProcess,
    readonly clients: Client[],
  ) {}

  /** Makes `count` client namespaces c1…cN at 198.18.1.N. Throws plainly when not run as root in a private namespace. */
  static async create(count: number): Promise<ClientTopology> {
    const links = execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' });
    if (!links.includes('vmifb0')) throw new Error('run inside the test network namespace (unshare --net bash scripts/in-netns.sh ...)');
    // One process holds a private mount namespace whose /run/netns is a tmpfs: named namespaces are made there.
    fs.mkdirSync('/run/netns', { recursive: true });
    const keeper = spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs vmnetns /run/netns && echo ready && exec sleep infinity'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      keeper.stderr!.on('data', (d) => (err += d));
      keeper.stdout!.once('data', () => resolve());
      keeper.once('exit', (code) => reject(new Error(`could not make the private /run/netns (${code}): ${err}`)));
    });
    const inMounts = (args: string[]) => execFileSync('nsenter', [`--mount=/proc/${keeper.pid}/ns/mnt`, ...args], { encoding: 'utf8', stdio: 'pipe' });
    const netnsPath = (name: string) => `/proc/${keeper.pid}/root/run/netns/${name}`;
    const ip = (args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

    try {
      ip(['link', 'add', BRIDGE, 'type', 'bridge']);
      ip(['addr', 'add', `${SERVER_ADDRESS}/${PREFIX}`, 'dev', BRIDGE]);
      ip(['link', 'set', BRIDGE, 'up']);
    } catch (err) {
      keeper.kill('SIGKILL');
      throw err;
    }
    const clients: Client[] = [];
    for (let i = 1; i <= count; i++) {
      const name = `c${i}`;
      const host = `vmc${i}`;
      inMounts(['ip', 'netns', 'add', name]);
      const inNs = (command: string[]) => execFileSync('nsenter', [`--net=${netnsPath(name)}`, ...command], { encoding: 'utf8', stdio: 'pipe' });
      ip(['link', 'add', host, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netnsPath(name)]);
      ip(['link', 'set', host, 'master', BRIDGE]);
      ip(['link', 'set', host, 'up']);
      const client: Client = {
        name,
        address: `198.18.1.${i}`,
        exec: inNs,
        iptables: (args) => void inNs(['iptables-legacy', ...args]),
        cut() {
          client.iptables(['-I', 'INPUT', '-j', 'DROP']);
          client.iptables(['-I', 'OUTPUT', '-j', 'DROP']);
        },
        restore() {
          client.iptables(['-F']);
        },
        blockUdp() {
          client.iptables(['-A', 'INPUT', '-p', 'udp', '-j', 'DROP']);
          client.iptables(['-A', 'OUTPUT', '-p', 'udp', '-j', 'DROP']);
        },
        moveTo(address) {
          // Old one out, new one in, as a change of network does (adding first would not help: deleting a
          // subnet's primary address takes its secondaries with it unless promote_secondaries is set).
          inNs(['ip', 'addr', 'del', `${client.address}/${PREFIX}`, 'dev', 'eth0']);
          inNs(['ip', 'addr', 'add', `${address}/${PREFIX}`, 'dev', 'eth0']);
          client.address = address;
        },
        launch: async (origin, extraArgs = []) => {
          // playwright-core starts "Chromium" through this script, which runs the real one inside the namespace.
          const script = path.join(os.tmpdir(), `videomote-chromium-${name}-${process.pid}.sh`);
          fs.writeFileSync(script, `#!/bin/sh\nexec nsenter --net=${netnsPath(name)} ${CHROMIUM} "$@"\n`, { mode: 0o755 });
          topology.scripts.push(script);
          const browser = await chromium.launch({
            executablePath: script,
            headless: true,
            // getUserMedia and WebCrypto need a secure context; the server's address is plain http here.
            args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', `--unsafely-treat-insecure-origin-as-secure=${origin}`, ...extraArgs],
          });
          topology.browsers.push(browser);
          return browser;
        },
      };
      inNs(['ip', 'link', 'set', 'lo', 'up']);
      inNs(['ip', 'addr', 'add', `${client.address}/${PREFIX}`, 'dev', 'eth0']);
      inNs(['ip', 'link', 'set', 'eth0', 'up']);
      clients.push(client);
    }
    const topology = new ClientTopology(keeper, clients);
    return topology;
  }

  async close(): Promise<void> {
    for (const b of this.browsers.splice(0)) await b.close().catch(() => {});
    for (const c of this.clients) {
      try {
        c.restore();
      } catch {
        /* namespace already gone */
      }
    }
    this.keeper.kill('SIGKILL');
    // The veth pairs go with their client namespaces only once the kernel has destroyed those, later and
    // asynchronously: deleted here, so that the next spec's topology can make vmc1… again at once.
    for (const link of [...this.clients.map((_, i) => `vmc${i + 1}`), BRIDGE]) {
      try {
        execFileSync('ip', ['link', 'del', link], { stdio: 'pipe' });
      } catch {
        /* already gone */
      }
    }
    for (const s of this.scripts.splice(0)) fs.rmSync(s, { force: true });
  }
}
