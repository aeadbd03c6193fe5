import type { ClientConfig } from '@videomote/contract/identity';

let loaded: Promise<ClientConfig> | null = null;

/** `/assets/config/config.json`, fetched once (booking spec §7). */
export function loadClientConfig(): Promise<ClientConfig> {
  loaded ??= fetch('/assets/config/config.json').then((r) => {
    if (!r.ok) throw new Error('config.json could not be loaded');
    return r.json() as Promise<ClientConfig>;
  });
  return loaded;
}
