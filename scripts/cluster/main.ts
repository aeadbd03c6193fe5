import { startCluster, type Cluster } from './topology.ts';

/**
 * `npm run cluster` (through scripts/cluster.sh, inside a private network namespace): the production topology on
 * this machine until Ctrl-C. DATABASE_URL is required (the namespace reaches a local PostgreSQL through its Unix
 * socket); REDIS_URL is optional (a private redis-server otherwise); CLUSTER_PORT picks the public port.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL is required, e.g. postgres://postgres@/videomote?host=/var/run/postgresql');
  process.exit(2);
}

let cluster: Cluster | null = null;
let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('stopping the cluster…');
  await cluster?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  cluster = await startCluster({
    databaseUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    publicPort: process.env.CLUSTER_PORT ? Number(process.env.CLUSTER_PORT) : 8443,
    iceEnforce: process.env.JANUS_ICE_ENFORCE ?? null,
    // In its own namespace (scripts/cluster.sh) the TURN firewall is the namespace's, as on a TURN host of its own.
    turnFirewall: process.env.VIDEOMOTE_IN_NETNS === '1' && !!process.env.JANUS_ICE_ENFORCE,
  });
} catch (err) {
  console.error((err as Error).message);
  await stop(1);
}
const c = cluster!;
for (const p of c.processes()) console.log(`  ${p.name.padEnd(8)} pid ${p.pid}`);
for (const n of c.nodes) console.log(`  ${n.server}: https://127.0.0.1:${n.port} (internal https://127.0.0.1:${n.internalPort}/readyz), DATA_DIR ${n.dataDir}`);
if (c.turn) console.log(`  coturn: turn:${c.turn.address}:${c.turn.port}, relaying from ${c.turn.relayIp} to ${c.turn.janusAddress}${c.turn.firewall ? ' (deploy/coturn/turn-to-janus.nft loaded)' : ''}`);
console.log(`  test CA: ${c.caFile} (server certificate SPKI sha256 ${c.spkiHash})`);
console.log(`Videomöte (cluster) serves on ${c.url}`);
console.log(`  a browser in this namespace: nsenter --net=/proc/${process.pid}/ns/net chromium --ignore-certificate-errors-spki-list=${c.spkiHash} ${c.url}`);
console.log('Ctrl-C stops everything.');
