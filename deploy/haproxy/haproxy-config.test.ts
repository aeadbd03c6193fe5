import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The reference proxy configuration as an operator copies it: HAProxy's own check accepts it (when HAProxy is
// installed, as scripts/test.sh installs it), and the rules that matter for safety are in it. That it balances,
// checks /readyz and fails over is shown by e2e/cluster-failover.spec.ts through this very file.
const CFG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'haproxy.cfg');
const text = fs.readFileSync(CFG, 'utf8');
const HAPROXY = '/usr/sbin/haproxy';

describe('deploy/haproxy/haproxy.cfg', () => {
  it.skipIf(!fs.existsSync(HAPROXY))('passes haproxy -c with a certificate in place', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-haproxy-'));
    try {
      const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      fs.writeFileSync(path.join(dir, 'key.pem'), key);
      const cert = spawnSync('openssl', ['req', '-x509', '-key', 'key.pem', '-subj', '/CN=localhost', '-days', '1', '-out', 'cert.pem'], { cwd: dir, encoding: 'utf8' });
      expect(cert.status, cert.stderr).toBe(0);
      fs.writeFileSync(path.join(dir, 'both.pem'), fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') + key);
      const check = spawnSync(HAPROXY, ['-c', '-f', CFG], { encoding: 'utf8', env: { ...process.env, VIDEOMOTE_TLS_CERT: path.join(dir, 'both.pem'), VIDEOMOTE_BIND: '127.0.0.1:8443', VIDEOMOTE_APP_CA: path.join(dir, 'cert.pem') } });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends TLS itself, sets the forwarded headers from what it saw, and keeps operator endpoints and statistics private', () => {
    expect(text).toMatch(/bind "\$\{VIDEOMOTE_BIND\}" ssl crt "\$\{VIDEOMOTE_TLS_CERT\}"/);
    expect(text).toContain('http-request del-header X-Forwarded-For');
    expect(text).toContain('http-request set-header X-Forwarded-Proto https');
    expect(text).toContain('option forwardfor');
    expect(text).toMatch(/http-request deny deny_status 404 if \{ path \/readyz \/metrics \} \|\| \{ path_beg \/api\/docs \}/);
    expect(text).not.toMatch(/^\s*stats (enable|uri)/m);
    // Health checks on each node's internal listener, and long-lived WebSocket tunnels.
    expect(text).toContain('http-check send meth GET uri /readyz');
    expect(text.match(/check addr "\$\{VIDEOMOTE_APP\d_HOST\}" port "\$\{VIDEOMOTE_APP\d_INTERNAL_PORT\}"/g)).toHaveLength(2);
    expect(text).toMatch(/timeout tunnel 1h/);
  });

  it('reaches the app nodes over TLS, their certificate and name verified, for traffic and health checks alike', () => {
    expect(text).toMatch(/^\s*default-server ssl verify required ca-file "\$\{VIDEOMOTE_APP_CA\}" check-ssl/m);
    expect(text).not.toMatch(/verify none/);
    const servers = text.split('\n').filter((l) => /^\s*server /.test(l));
    expect(servers).toHaveLength(2);
    for (const line of servers) expect(line).toMatch(/verifyhost "\$\{VIDEOMOTE_APP\d_TLS_NAME\}"/);
  });
});
