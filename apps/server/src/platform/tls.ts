import fs from 'node:fs';
import { ConfigError } from './config.ts';

export interface TlsOptions {
  cert: Buffer;
  key: Buffer;
  minVersion: 'TLSv1.2';
}

/**
 * The node's certificate and key (TLS_CERT_FILE, TLS_KEY_FILE) for its listeners, read once at start: a file that
 * cannot be read stops the start with its name, not the first connection.
 */
export function tlsOptions(files: { certFile: string; keyFile: string }): TlsOptions {
  const read = (name: string, file: string) => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new ConfigError(`${name} "${file}" cannot be read: ${(err as Error).message}`);
    }
  };
  return { cert: read('TLS_CERT_FILE', files.certFile), key: read('TLS_KEY_FILE', files.keyFile), minVersion: 'TLSv1.2' };
}
