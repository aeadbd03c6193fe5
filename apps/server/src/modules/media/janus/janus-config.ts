import fs from 'node:fs';
import path from 'node:path';

export const JANUS_LIB_DIR = process.env.JANUS_LIB_DIR || '/usr/lib/x86_64-linux-gnu/janus';

export interface EmbeddedJanusSettings {
  wsPort: number;
  adminWsPort: number;
  tokenSecret: string;
  adminSecret: string;
  /** The VideoRoom plugin's admin_key: room creation needs it, so only the server can create rooms. */
  roomAdminKey: string;
  /** `JANUS_ICE_ENFORCE`: interface or address ICE may gather on; null leaves Janus's default. */
  iceEnforce: string | null;
  rtpPortRange: string;
  /**
   * A pool instance on its own machine (scripts/cluster/janus-pool-config.ts): the address its WebSocket API listens
   * on for the app nodes, and the certificate it answers wss:// with. The embedded Janus: loopback, plain ws.
   */
  wsIp?: string;
  tls?: { certPem: string; keyPem: string };
}

// Only the VideoRoom plugin (the call), the echo test (the lobby's connection check, reachable only through
// check-policy) and the WebSocket transport are needed; everything else stays unloaded so it cannot be reached or
// misconfigured.
const UNUSED_PLUGINS = ['audiobridge', 'duktape', 'lua', 'nosip', 'recordplay', 'sip', 'streaming', 'textroom', 'videocall', 'voicemail'];
const UNUSED_TRANSPORTS = ['http', 'mqtt', 'nanomsg', 'pfunix', 'rabbitmq'];
const UNUSED_EVENTS = ['gelfevh', 'mqttevh', 'nanomsgevh', 'rabbitmqevh', 'sampleevh', 'wsevh'];

const q = (value: string) => JSON.stringify(value); // libconfig strings accept JSON-style escapes

export function janusConfigFiles(dir: string, s: EmbeddedJanusSettings): Record<string, string> {
  const nat = [
    'nice_debug = false',
    'full_trickle = true',
    'ignore_mdns = true',
    ...(s.iceEnforce ? [`ice_enforce_list = ${q(s.iceEnforce)}`] : []),
  ];
  return {
    'janus.jcfg': `# Written by Videomöte at start-up; edits are overwritten.
general: {
  configs_folder = ${q(dir)}
  plugins_folder = ${q(path.join(JANUS_LIB_DIR, 'plugins'))}
  transports_folder = ${q(path.join(JANUS_LIB_DIR, 'transports'))}
  events_folder = ${q(path.join(JANUS_LIB_DIR, 'events'))}
  loggers_folder = ${q(path.join(JANUS_LIB_DIR, 'loggers'))}
  log_to_stdout = true
  debug_level = 4
  debug_colors = false
  admin_secret = ${q(s.adminSecret)}
  token_auth = true
  token_auth_secret = ${q(s.tokenSecret)}
  session_timeout = 60
  reclaim_session_timeout = 0
  hide_dependencies = true
  server_name = "videomote"
}
certificates: {
}
media: {
  ipv6 = false
  rtp_port_range = ${q(s.rtpPortRange)}
}
nat: {
  ${nat.join('\n  ')}
}
plugins: {
  disable = ${q(UNUSED_PLUGINS.map((p) => `libjanus_${p}.so`).join(','))}
}
transports: {
  disable = ${q(UNUSED_TRANSPORTS.map((p) => `libjanus_${p}.so`).join(','))}
}
loggers: {
  disable = "libjanus_jsonlog.so"
}
events: {
  broadcast = false
  disable = ${q(UNUSED_EVENTS.map((p) => `libjanus_${p}.so`).join(','))}
}
`,
    'janus.plugin.videoroom.jcfg': `# Rooms are created at run time by the server (one per meeting), never configured here.
general: {
  admin_key = ${q(s.roomAdminKey)}
  lock_rtp_forward = true
  string_ids = false
}
`,
    'janus.transport.websockets.jcfg': `general: {
  json = "plain"
${
  s.tls
    ? `  ws = false
  wss = true
  wss_port = ${s.wsPort}
  wss_ip = ${q(s.wsIp ?? '127.0.0.1')}`
    : `  ws = true
  ws_port = ${s.wsPort}
  ws_ip = ${q(s.wsIp ?? '127.0.0.1')}
  wss = false`
}
}
${s.tls ? `certificates: {\n  cert_pem = ${q(s.tls.certPem)}\n  cert_key = ${q(s.tls.keyPem)}\n}\n` : ''}admin: {
  admin_ws = true
  admin_ws_port = ${s.adminWsPort}
  admin_ws_ip = "127.0.0.1"
  admin_wss = false
}
`,
  };
}

export function writeJanusConfig(dir: string, s: EmbeddedJanusSettings): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(janusConfigFiles(dir, s))) {
    fs.writeFileSync(path.join(dir, name), text, { mode: 0o600 });
  }
  return path.join(dir, 'janus.jcfg');
}
