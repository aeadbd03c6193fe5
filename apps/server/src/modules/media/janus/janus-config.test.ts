import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../platform/config.ts';
import { janusConfigFiles } from './janus-config.ts';
import { JanusPool } from './janus-pool.ts';
import { signJanusToken } from './janus-token.ts';

const settings = { wsPort: 40001, adminWsPort: 40002, tokenSecret: 'tok', adminSecret: 'adm', roomAdminKey: 'key', iceEnforce: '127.0.0.2', rtpPortRange: '20000-20100' };

describe('embedded Janus configuration', () => {
  it('binds both APIs to loopback, enforces tokens and the ICE address, and loads only what we use', () => {
    const files = janusConfigFiles('/data/janus', settings);
    const main = files['janus.jcfg']!;
    expect(main).toContain('token_auth = true');
    expect(main).toContain('token_auth_secret = "tok"');
    expect(main).toContain('ice_enforce_list = "127.0.0.2"');
    expect(main).toContain('full_trickle = true');
    expect(main).toContain('ignore_mdns = true');
    expect(main).toContain('ipv6 = false');
    expect(main).toContain('rtp_port_range = "20000-20100"');
    expect(main).not.toMatch(/stun_server/);
    // The echo test stays loaded for the lobby's connection check (reachable only through check-policy).
    expect(main).not.toMatch(/disable = ".*libjanus_echotest\.so.*"/);
    expect(main).toMatch(/disable = ".*libjanus_streaming\.so.*"/);
    expect(main).toMatch(/disable = ".*libjanus_http\.so.*"/);
    const ws = files['janus.transport.websockets.jcfg']!;
    expect(ws).toContain('ws_ip = "127.0.0.1"');
    expect(ws).toContain('admin_ws_ip = "127.0.0.1"');
    expect(ws).toContain('ws_port = 40001');
    expect(files['janus.plugin.videoroom.jcfg']).toContain('admin_key = "key"');
    expect(files['janus.plugin.videoroom.jcfg']).not.toMatch(/room-\d+/);
  });

  it('for a pool instance on its own machine: wss on the private address with its certificate, admin API still on loopback', () => {
    const ws = janusConfigFiles('/etc/videomote/janus/1', { ...settings, wsIp: '10.0.2.21', tls: { certPem: '/etc/ssl/j.pem', keyPem: '/etc/ssl/j.key' } })['janus.transport.websockets.jcfg']!;
    expect(ws).toContain('wss = true');
    expect(ws).toContain('wss_ip = "10.0.2.21"');
    expect(ws).toContain('wss_port = 40001');
    expect(ws).toContain('ws = false');
    expect(ws).toContain('cert_pem = "/etc/ssl/j.pem"');
    expect(ws).toContain('admin_ws_ip = "127.0.0.1"');
    expect(janusConfigFiles('/d', settings)['janus.transport.websockets.jcfg']).not.toContain('certificates');
  });

  it('leaves ICE to Janus when JANUS_ICE_ENFORCE is unset', () => {
    expect(janusConfigFiles('/d', { ...settings, iceEnforce: null })['janus.jcfg']).not.toContain('ice_enforce_list');
  });

  it('signs Janus tokens in the token_auth_secret format', () => {
    expect(signJanusToken('janus', 1_900_000_000)).toMatch(/^1900000000,janus,janus\.plugin\.videoroom:[A-Za-z0-9+/]+=*$/);
  });
});

describe('JanusPool with JANUS_URL', () => {
  it('places a new room on the least loaded instance', () => {
    const log = { info() {}, warn() {}, error() {} };
    const pool = new JanusPool(loadConfig({ JANUS_URL: 'ws://127.0.0.11:8188, ws://127.0.0.12:8188,ws://127.0.0.13:8188' }), log, {});
    expect(pool.ids()).toEqual(['ws://127.0.0.11:8188', 'ws://127.0.0.12:8188', 'ws://127.0.0.13:8188']);
    expect(pool.supervisor).toBeNull();
    expect(pool.leastLoaded(new Map([['ws://127.0.0.11:8188', 3], ['ws://127.0.0.12:8188', 1], ['ws://127.0.0.13:8188', 2]]))).toBe('ws://127.0.0.12:8188');
    expect(pool.leastLoaded(new Map([['ws://127.0.0.11:8188', 3], ['ws://127.0.0.12:8188', 1]]))).toBe('ws://127.0.0.13:8188');
    // Failover: only among the instances that still answer.
    expect(pool.leastLoaded(new Map([['ws://127.0.0.11:8188', 3], ['ws://127.0.0.13:8188', 2]]), ['ws://127.0.0.11:8188', 'ws://127.0.0.13:8188'])).toBe('ws://127.0.0.13:8188');
  });
});
