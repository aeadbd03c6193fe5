import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfig } from '../../apps/server/src/platform/config.ts';
import { parseEnvFile } from './env-file.ts';

/**
 * The environment file an operator copies must start: loaded through the server's own parser it gives no
 * refusal and no warning, once the secrets it leaves empty are filled in. Each empty value must be one of those
 * secrets, so a setting left blank by mistake shows here.
 */
const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'videomote.env.example');

// What an operator fills in, each in the form the server wants.
const SECRETS: Record<string, () => string> = {
  METRICS_TOKEN: () => crypto.randomBytes(32).toString('hex'),
  CLUSTER_SECRET: () => crypto.randomBytes(32).toString('base64'),
  JANUS_TOKEN_SECRET: () => crypto.randomBytes(24).toString('hex'),
  JANUS_ADMIN_KEY: () => crypto.randomBytes(24).toString('hex'),
  TURN_SECRET: () => crypto.randomBytes(24).toString('hex'),
  OIDC_CLIENT_SECRET: () => crypto.randomBytes(24).toString('hex'),
  PIN_KEY: () => crypto.randomBytes(32).toString('base64'),
  LDAP_BIND_PASSWORD: () => crypto.randomBytes(16).toString('hex'),
};

describe('deploy/systemd/videomote.env.example', () => {
  const env = parseEnvFile(fs.readFileSync(EXAMPLE, 'utf8'));

  it('leaves empty only the secrets an operator fills in', () => {
    const empty = Object.keys(env).filter((k) => env[k] === '');
    expect(empty.filter((k) => !SECRETS[k])).toEqual([]);
    expect(env.DATA_DIR, 'set by the unit').toBeUndefined();
  });

  it('starts: the real configuration parser neither refuses it nor warns about it', () => {
    const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' && SECRETS[k] ? SECRETS[k]() : v]));
    const config = loadConfig({ ...filled, DATA_DIR: '/var/lib/videomote' });
    expect(configWarnings(config)).toEqual([]);
    // It is the production set-up it claims to be: metrics guarded, TURN with per-participant credentials.
    expect(config.environment).toBe('production');
    expect(config.metricsToken).toBe(filled.METRICS_TOKEN);
    expect(config.turnUrls.length).toBeGreaterThan(0);
    expect(config.janusUrls.every((u) => u.startsWith('wss://'))).toBe(true);
    expect(config.tls).toEqual({ certFile: '/etc/videomote/tls/node.pem', keyFile: '/etc/videomote/tls/node.key' });
  });

  it('without its secrets it does not start', () => {
    expect(() => loadConfig({ ...env, DATA_DIR: '/var/lib/videomote' })).toThrow();
  });
});
