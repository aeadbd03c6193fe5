/**
 * Writes the configuration of one Janus of the pool (for videomote-janus@N.service) with the server's own writer,
 * so a pool instance is configured exactly as the embedded one is tested: token auth with the nodes'
 * JANUS_TOKEN_SECRET, the VideoRoom admin key JANUS_ADMIN_KEY (only the nodes create rooms), only the VideoRoom plugin
 * and the WebSocket transport loaded, the admin API on loopback with a random secret nobody is given.
 *
 * Usage (secrets from the environment, never on the command line):
 *   JANUS_TOKEN_SECRET=… JANUS_ADMIN_KEY=… npm run janus:config -- /etc/videomote/janus/1 \
 *     --ws-ip 10.0.2.21 --ws-port 8188 --rtp 20000-40000 --ice 10.0.2.21 --cert /etc/ssl/janus.pem --key /etc/ssl/janus.key
 * Without --cert it listens with plain ws:// (loopback only: the nodes refuse ws:// to another machine).
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { writeJanusConfig } from '../../apps/server/src/modules/media/janus/janus-config.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'ws-ip': { type: 'string', default: '127.0.0.1' },
    'ws-port': { type: 'string', default: '8188' },
    'admin-port': { type: 'string', default: '7188' },
    rtp: { type: 'string', default: '20000-40000' },
    ice: { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
  },
});
const dir = positionals[0];
const tokenSecret = process.env.JANUS_TOKEN_SECRET;
const roomAdminKey = process.env.JANUS_ADMIN_KEY;
if (!dir || !tokenSecret || !roomAdminKey || Boolean(values.cert) !== Boolean(values.key)) {
  console.error('usage: JANUS_TOKEN_SECRET=… JANUS_ADMIN_KEY=… janus-pool-config.ts <dir> [--ws-ip A] [--ws-port N] [--rtp A-B] [--ice A] [--cert F --key F]');
  process.exit(2);
}
const file = writeJanusConfig(dir, {
  wsPort: Number(values['ws-port']),
  adminWsPort: Number(values['admin-port']),
  tokenSecret,
  adminSecret: crypto.randomBytes(24).toString('base64url'),
  roomAdminKey,
  iceEnforce: values.ice ?? null,
  rtpPortRange: values.rtp!,
  wsIp: values['ws-ip'],
  tls: values.cert && values.key ? { certPem: values.cert, keyPem: values.key } : undefined,
});
console.log(`wrote ${file} and its plugin and transport files; JANUS_URL entry: ${values.cert ? 'wss' : 'ws'}://${values['ws-ip']}:${values['ws-port']}`);
