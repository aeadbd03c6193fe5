import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeJanusConfig } from '../../apps/server/src/modules/media/janus/janus-config.ts';
import { janusBin, waitForJanus } from '../../apps/server/src/modules/media/janus/janus-supervisor.ts';
import { freePort } from '../../apps/server/src/platform/free-port.ts';
import { serverBundle } from '../server-bundle.ts';

/**
 * The production topology on one machine: HAProxy terminating TLS in front of two app nodes, two Janus instances
 * (the pool), coturn when deploy/coturn/turnserver.conf exists, against the PostgreSQL and Redis it is given.
 * Every process is started here from the reference configuration in deploy/ and stopped here by its pid.
 * scripts/cluster.sh runs it for an operator (inside a private network namespace); the cluster tests import it.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HAPROXY_CFG = path.join(ROOT, 'deploy/haproxy/haproxy.cfg');
export const TURNSERVER_CONF = path.join(ROOT, 'deploy/coturn/turnserver.conf');
export const TURN_FIREWALL = path.join(ROOT, 'deploy/coturn/turn-to-janus.nft');
/** The Janus instances' RTP port ranges, and the span the TURN firewall lets the relay reach. */
const JANUS_RTP_RANGES = ['20400-20499', '20500-20599'];
export const JANUS_RTP_SPAN = '20400-20599';
/**
 * coturn's relay address inside the cluster's network namespace: one of its own, as deploy/coturn/turn-to-janus.nft
 * wants (it judges only packets from the relay address), so that the app nodes' traffic to Janus is never touched.
 */
export const TURN_RELAY_IP = '127.0.0.3';

export interface ClusterOptions {
  /** The shared PostgreSQL (required: two nodes cannot share an embedded database). */
  databaseUrl: string;
  /** A PostgreSQL schema to create and use (dropped on stop): the tests' own, beside others on the same database. */
  schema?: string;
  /** The shared Redis; when left out a private redis-server is started for the cluster. */
  redisUrl?: string;
  /** The proxy's public port on 127.0.0.1 (default: a free one). */
  publicPort?: number;
  /** JANUS_ICE_ENFORCE for the Janus instances (scripts/in-netns.sh sets 127.0.0.2). */
  iceEnforce?: string | null;
  /** Shared by the nodes (they must agree); fresh for the run when left out. */
  pinKey?: string;
  /**
   * Load deploy/coturn/turn-to-janus.nft for coturn's relay address, as an operator does on the TURN host (removed
   * on stop). Only inside the cluster's own network namespace (scripts/in-netns.sh; needs iceEnforce): the table
   * belongs to that namespace.
   */
  turnFirewall?: boolean;
  log?: (line: string) => void;
}

export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  output(): string;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface AppNode extends ClusterProcess {
  /** HAProxy's name for it (and the value of its stickiness cookie vm_node). */
  server: 'app1' | 'app2';
  port: number;
  internalPort: number;
  dataDir: string;
}

export interface JanusInstance extends ClusterProcess {
  url: string;
}

export interface TurnInstance extends ClusterProcess {
  /** Where browsers reach it (listening-ip and port), and the address it relays from (relay-ip). */
  address: string;
  port: number;
  relayIp: string;
  /** The only peer address it relays to (allowed-peer-ip): the Janus instances' media address. */
  janusAddress: string;
  /** The REST credentials' shared secret (the nodes' TURN_SECRET). */
  secret: string;
  /** Whether deploy/coturn/turn-to-janus.nft is loaded for it. */
  firewall: boolean;
}

export interface Cluster {
  /** https://localhost:{port}: the one public address. */
  url: string;
  dir: string;
  /** The test CA's certificate (PEM) and the server certificate's SPKI hash (Chromium's --ignore-certificate-errors-spki-list). */
  caFile: string;
  spkiHash: string;
  proxy: ClusterProcess;
  nodes: AppNode[];
  janus: JanusInstance[];
  turn: TurnInstance | null;
  redis: ClusterProcess | null;
  /** Every process this cluster started, for CPU accounting. */
  processes(): ClusterProcess[];
  /** The environment of the app nodes (without per-node values), e.g. to start another node. */
  nodeEnv: Record<string, string>;
  /** Starts an app node again (after a kill) on its old ports and data folder. */
  restartNode(node: AppNode): Promise<AppNode>;
  /**
   * Restarts the cluster's private Redis (stopped with `signal`, then started again on its port, empty: it keeps no
   * data on disk); resolves once it answers. Refused when the cluster was given a Redis of someone else's.
   */
  restartRedis(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
}

/** A test CA and a server certificate for localhost and 127.0.0.1 signed by it, made with openssl. */
export function makeTestCertificates(dir: string): { caFile: string; pemFile: string; spkiHash: string; certFile: string; keyFile: string } {
  fs.writeFileSync(path.join(dir, 'san.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', '/CN=Videomote test CA', '-keyout', 'ca.key', '-out', 'ca.pem'], dir);
  run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr'], dir);
  run('openssl', ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'san.cnf', '-out', 'server.pem'], dir);
  const cert = fs.readFileSync(path.join(dir, 'server.pem'), 'utf8');
  const pemFile = path.join(dir, 'haproxy.pem');
  fs.writeFileSync(pemFile, cert + fs.readFileSync(path.join(dir, 'server.key'), 'utf8'), { mode: 0o600 });
  const spki = new crypto.X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return {
    caFile: path.join(dir, 'ca.pem'),
    pemFile,
    spkiHash: crypto.createHash('sha256').update(spki).digest('base64'),
    // The same certificate for the app nodes' own listeners (TLS_CERT_FILE): the proxy checks them against the CA.
    certFile: path.join(dir, 'server.pem'),
    keyFile: path.join(dir, 'server.key'),
  };
}

function startProcess(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, log: (l: string) => void): ClusterProcess {
  let out = '';
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.once('exit', (code, signal) => log(`${name} (pid ${child.pid}) exited: ${signal ?? code}`));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    pid: child.pid!,
    output: () => out,
    alive,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (!alive()) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 12_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill(signal);
      }),
  };
}

async function waitFor(what: string, check: () => Promise<boolean>, proc: ClusterProcess | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc && !proc.alive()) throw new Error(`${what}: the process exited\n${proc.output().slice(-4000)}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs / 1000} s\n${proc?.output().slice(-4000) ?? ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}


/** A GET through the proxy with the test CA trusted; answers status and headers. */
export function getThroughProxy(url: string, caFile: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca: fs.readFileSync(caFile), headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.setTimeout(5_000, () => req.destroy(new Error('timeout')));
  });
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? ((line: string) => console.log(line));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-cluster-'));
  fs.chmodSync(dir, 0o700);
  const started: ClusterProcess[] = [];
  let schemaDropper: (() => Promise<void>) | null = null;
  let firewallRemover: (() => void) | null = null;
  const stopAll = async () => {
    // The proxy first (no new traffic), then the nodes (they drain), then what they use.
    for (const p of [...started].reverse()) await p.kill('SIGTERM');
    firewallRemover?.();
    await schemaDropper?.();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { caFile, pemFile, spkiHash, certFile, keyFile } = makeTestCertificates(dir);

    // Redis: the one given, or a private one (no persistence) for this run.
    let redis: ClusterProcess | null = null;
    let redisUrl = options.redisUrl;
    let startRedis: (() => Promise<ClusterProcess>) | null = null;
    if (!redisUrl) {
      const port = await freePort();
      startRedis = async () => {
        const p = startProcess('redis', '/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], process.env, log);
        started.push(p);
        await waitFor('redis', () => new Promise((res) => {
          const s = net.connect(port, '127.0.0.1', () => (s.end(), res(true)));
          s.on('error', () => res(false));
        }), p, 10_000);
        return p;
      };
      redis = await startRedis();
      redisUrl = `redis://127.0.0.1:${port}`;
    }

    let pgOptions: string | undefined;
    if (options.schema) {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: options.databaseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${options.schema}`);
      await admin.end();
      pgOptions = `-c search_path=${options.schema}`;
      schemaDropper = async () => {
        const c = new pg.Client({ connectionString: options.databaseUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${options.schema} CASCADE`);
        await c.end();
      };
    }

    // The Janus pool: the server's own configuration writer (token auth, VideoRoom admin key, APIs on loopback
    // only, the admin API with a secret nobody is given), with secrets the nodes share.
    const tokenSecret = crypto.randomBytes(24).toString('base64url');
    const roomAdminKey = crypto.randomBytes(24).toString('base64url');
    const janus: JanusInstance[] = [];
    for (const [i, rtp] of JANUS_RTP_RANGES.entries()) {
      const wsPort = await freePort();
      const cfg = writeJanusConfig(path.join(dir, `janus${i + 1}`), {
        wsPort,
        adminWsPort: await freePort(),
        tokenSecret,
        adminSecret: crypto.randomBytes(24).toString('base64url'),
        roomAdminKey,
        iceEnforce: options.iceEnforce ?? null,
        rtpPortRange: rtp,
      });
      const p = startProcess(`janus${i + 1}`, janusBin(), [`--config=${cfg}`, `--configs-folder=${path.dirname(cfg)}`, '--disable-colors'], process.env, log);
      started.push(p);
      const url = `ws://127.0.0.1:${wsPort}`;
      await waitForJanus(url, 20_000, p.alive);
      janus.push({ ...p, url });
    }

    // coturn from the reference file when there is one; its shared secret is the nodes' TURN_SECRET. As an operator
    // starts it (the file's header): the Janus media address as the one allowed peer, and (in the namespace) a relay
    // address of its own that the TURN firewall judges.
    let turn: TurnInstance | null = null;
    const turnEnv: Record<string, string> = {};
    if (fs.existsSync(TURNSERVER_CONF)) {
      const port = await freePort();
      const secret = crypto.randomBytes(24).toString('base64url');
      const ip = options.iceEnforce ?? '127.0.0.1';
      const relayIp = options.iceEnforce ? TURN_RELAY_IP : ip;
      const p = startProcess('coturn', '/usr/bin/turnserver', [
        '-c', TURNSERVER_CONF, '--listening-ip', ip, '--relay-ip', relayIp, '--listening-port', String(port), '--allowed-peer-ip', ip,
        '--static-auth-secret', secret, '--pidfile', path.join(dir, 'turnserver.pid'), '--log-file', 'stdout', '--no-tls', '--no-dtls',
      ], process.env, log);
      started.push(p);
      let firewall = false;
      if (options.turnFirewall) {
        if (!options.iceEnforce) throw new Error('turnFirewall needs the cluster\'s own network namespace (iceEnforce)');
        // Every address of the Janus "host" here: its media address and the loopback its APIs listen on.
        run('nft', ['-D', `turn_relay=${relayIp}`, '-D', `janus_hosts={ 127.0.0.1, ${ip} }`, '-D', `rtp_ports=${JANUS_RTP_SPAN}`, '-f', TURN_FIREWALL], ROOT);
        firewallRemover = () => void spawnSync('nft', ['delete', 'table', 'inet', 'videomote_turn']);
        firewall = true;
      }
      turn = { ...p, address: ip, port, relayIp, janusAddress: ip, secret, firewall };
      turnEnv.TURN_URLS = `turn:${ip}:${port}?transport=udp,turn:${ip}:${port}?transport=tcp`;
      turnEnv.TURN_SECRET = secret;
    } else {
      log(`coturn: skipped (${path.relative(ROOT, TURNSERVER_CONF)} does not exist)`);
    }

    const publicPort = options.publicPort ?? (await freePort());
    const url = `https://localhost:${publicPort}`;
    const nodeEnv: Record<string, string> = {
      HOST: '127.0.0.1',
      INTERNAL_HOST: '127.0.0.1',
      PUBLIC_URL: url,
      // The proxy connects from 127.0.0.1: only its X-Forwarded-For is believed.
      TRUST_PROXY: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: redisUrl,
      JANUS_URL: janus.map((j) => j.url).join(','),
      JANUS_TOKEN_SECRET: tokenSecret,
      JANUS_ADMIN_KEY: roomAdminKey,
      PIN_KEY: options.pinKey ?? crypto.randomBytes(32).toString('base64'),
      // The nodes sign what they tell each other through Redis (required once Redis is on another machine).
      CLUSTER_SECRET: crypto.randomBytes(32).toString('base64'),
      // The proxy reaches the nodes over TLS, as in production (deploy/haproxy/haproxy.cfg).
      TLS_CERT_FILE: certFile,
      TLS_KEY_FILE: keyFile,
      // No identity provider here: the embedded test IdP, on purpose (refused on https without this).
      ALLOW_TEST_IDP: '1',
      LOG_LEVEL: 'warn',
      RETENTION_INTERVAL_SECONDS: '0',
      ...(pgOptions ? { PGOPTIONS: pgOptions } : {}),
      ...(options.iceEnforce ? { JANUS_ICE_ENFORCE: options.iceEnforce } : {}),
      ...turnEnv,
    };

    const startNode = async (server: 'app1' | 'app2', port: number, internalPort: number, dataDir: string): Promise<AppNode> => {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const p = startProcess(server, process.execPath, [await serverBundle()], {
        ...process.env,
        ...nodeEnv,
        PORT: String(port),
        INTERNAL_PORT: String(internalPort),
        DATA_DIR: dataDir,
      }, log);
      started.push(p);
      await waitFor(server, async () => (await getThroughProxy(`https://127.0.0.1:${internalPort}/readyz`, caFile)).status === 200, p, 120_000);
      return { ...p, server, port, internalPort, dataDir };
    };
    const nodes: AppNode[] = [];
    // One after the other: both migrate the same database at start, and the second finds it done.
    for (const server of ['app1', 'app2'] as const) {
      nodes.push(await startNode(server, await freePort(), await freePort(), path.join(dir, server)));
    }

    const proxy = startProcess('haproxy', '/usr/sbin/haproxy', ['-db', '-f', HAPROXY_CFG], {
      ...process.env,
      VIDEOMOTE_BIND: `127.0.0.1:${publicPort}`,
      VIDEOMOTE_TLS_CERT: pemFile,
      VIDEOMOTE_APP1_HOST: '127.0.0.1',
      VIDEOMOTE_APP1_PORT: String(nodes[0]!.port),
      VIDEOMOTE_APP1_INTERNAL_PORT: String(nodes[0]!.internalPort),
      VIDEOMOTE_APP2_HOST: '127.0.0.1',
      VIDEOMOTE_APP2_PORT: String(nodes[1]!.port),
      VIDEOMOTE_APP2_INTERNAL_PORT: String(nodes[1]!.internalPort),
      VIDEOMOTE_APP_CA: caFile,
      VIDEOMOTE_APP1_TLS_NAME: 'localhost',
      VIDEOMOTE_APP2_TLS_NAME: 'localhost',
    }, log);
    started.push(proxy);
    // Ready when both nodes have answered through it (the health checks marked them up).
    const seen = new Set<string>();
    await waitFor('haproxy', async () => {
      const res = await getThroughProxy(`https://127.0.0.1:${publicPort}/healthz`, caFile).catch(() => null);
      const cookie = String(res?.headers['set-cookie'] ?? '');
      const node = /vm_node=(app\d)/.exec(cookie)?.[1];
      if (res?.status === 200 && node) seen.add(node);
      return seen.size === 2;
    }, proxy, 30_000);

    const cluster: Cluster = {
      url,
      dir,
      caFile,
      spkiHash,
      proxy,
      nodes,
      janus,
      turn,
      redis,
      nodeEnv,
      processes: () => started.filter((p) => p.alive()),
      async restartNode(node) {
        const again = await startNode(node.server, node.port, node.internalPort, node.dataDir);
        nodes[nodes.indexOf(node)] = again;
        return again;
      },
      async restartRedis(signal = 'SIGTERM') {
        if (!startRedis || !cluster.redis) throw new Error('the cluster runs on a Redis it did not start');
        await cluster.redis.kill(signal);
        cluster.redis = await startRedis();
      },
      stop: stopAll,
    };
    return cluster;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** user+system CPU seconds of a process so far, from /proc/{pid}/stat (fields 14 and 15, in clock ticks). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}
