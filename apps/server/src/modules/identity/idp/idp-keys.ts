import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the embedded IdP must keep across restarts: its signing key, cookie keys and our client's secret. */
export interface IdpKeys {
  jwks: { keys: Record<string, unknown>[] };
  cookieKeys: string[];
  clientSecret: string;
}

/**
 * Generated once under DATA_DIR/keys, readable only by the server's user. A new key would invalidate every
 * issued id_token and IdP cookie, so the file is reused whenever it exists.
 */
export function loadIdpKeys(dataDir: string): IdpKeys {
  const file = path.join(dataDir, 'keys', 'idp.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as IdpKeys;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const keys: IdpKeys = {
    jwks: { keys: [{ ...jwk, kid: crypto.randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
    cookieKeys: [crypto.randomBytes(32).toString('base64url')],
    clientSecret: crypto.randomBytes(32).toString('base64url'),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written aside and renamed, so two processes starting together never read half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(keys), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as IdpKeys;
}
