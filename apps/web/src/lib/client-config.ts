import type { ClientConfig } from '@videomote/contract/identity';

let loaded: Promise<ClientConfig> | null = null;
let arrived: ClientConfig | null = null;

/**
 * The client configuration (booking spec §7): as the server wrote it into the page's HTML (a data block), else
 * `/assets/config/config.json` (the development server's pages have none), fetched once.
 */
export function loadClientConfig(): Promise<ClientConfig> {
  if (!loaded) {
    arrived = fromPage();
    loaded = arrived
      ? Promise.resolve(arrived)
      : fetch('/assets/config/config.json').then(async (r) => {
          if (!r.ok) throw new Error('config.json could not be loaded');
          return (arrived = (await r.json()) as ClientConfig);
        });
  }
  return loaded;
}

/**
 * The configuration if it is already there (from the page's HTML, always, in production), without awaiting it: for
 * code that must not yield to other work first (awaiting even a settled promise does).
 */
export function clientConfigNow(): ClientConfig | null {
  void loadClientConfig().catch(() => {});
  return arrived;
}

function fromPage(): ClientConfig | null {
  const text = typeof document === 'undefined' ? null : document.getElementById('client-config')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as ClientConfig;
  } catch {
    return null;
  }
}
