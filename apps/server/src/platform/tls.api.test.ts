import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from './config.ts';

// An app node with TLS_CERT_FILE/TLS_KEY_FILE serves HTTPS on both listeners (what HAProxy and Prometheus reach);
// plain HTTP gets no answer from either.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-tls-'));
const run = (args: string[]) => {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
};

const get = (url: string, ca: Buffer) =>
  new Promise<number>((resolve, reject) => {
    const req = https.get(url, { ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });

let t: TestApp;
let ca: Buffer;
let port = 0;
let internalPort = 0;
beforeAll(async () => {
  fs.writeFileSync(path.join(dir, 'san.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=test CA', '-keyout', 'ca.key', '-out', 'ca.pem']);
  run(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost', '-keyout', 'node.key', '-out', 'node.csr']);
  run(['x509', '-req', '-in', 'node.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.cnf', '-out', 'node.pem']);
  ca = fs.readFileSync(path.join(dir, 'ca.pem'));
  t = await buildTestApp({ env: { TLS_CERT_FILE: path.join(dir, 'node.pem'), TLS_KEY_FILE: path.join(dir, 'node.key') } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  await t.app.internal.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  internalPort = (t.app.internal.server.address() as { port: number }).port;
}, 60_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the listeners with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  it('answer HTTPS with the configured certificate on the public and the internal port', async () => {
    expect(await get(`https://localhost:${port}/healthz`, ca)).toBe(200);
    expect(await get(`https://127.0.0.1:${internalPort}/readyz`, ca)).toBe(200);
  });

  it('give plain HTTP no answer', async () => {
    for (const p of [port, internalPort]) await expect(fetch(`http://127.0.0.1:${p}/healthz`)).rejects.toThrow();
  });

  it('refuse to start with a certificate file that cannot be read, naming it', async () => {
    const config = loadConfig({ DATA_DIR: dir, TLS_CERT_FILE: path.join(dir, 'missing.pem'), TLS_KEY_FILE: path.join(dir, 'node.key') });
    await expect(buildApp({ config, db: t.db, logger: false })).rejects.toThrow(/TLS_CERT_FILE ".*missing.pem" cannot be read/);
  });
});
