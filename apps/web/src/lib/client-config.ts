import type { ClientConfig } from '@videomote/contract/identity';

let loaded: Promise<ClientConfig> | null = null;

/**
 * The client configuration (booking spec §7): as the server wrote it into the page's HTML (a data block), else
 * `/assets/config/config.json` (the development server's pages have none), fetched once.
 */
export function loadClientConfig(): Promise<ClientConfig> {
  loaded ??= fromPage() ?? fetch('/assets/config/config.json').then((r) => {
    if (!r.ok) throw new Error('config.json could not be loaded');
    return r.json() as Promise<ClientConfig>;
  });
  return loaded;
}

function fromPage(): Promise<ClientConfig> | null {
  const text = typeof document === 'undefined' ? null : document.getElementById('client-config')?.textContent;
  if (!text) return null;
  try {
    return Promise.resolve(JSON.parse(text) as ClientConfig);
  } catch {
    return null;
  }
}
