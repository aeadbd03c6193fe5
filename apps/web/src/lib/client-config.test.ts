import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module (it keeps what it loaded), on a page whose client-config block holds `text`. */
async function onPage(text: string | null) {
  vi.resetModules();
  vi.stubGlobal('document', { getElementById: (id: string) => (id === 'client-config' && text !== null ? { textContent: text } : null) });
  const fetch = vi.fn(async () => new Response(JSON.stringify({ mediaBaseUrl: 'ws://fetched/media' })));
  vi.stubGlobal('fetch', fetch);
  const { loadClientConfig, clientConfigNow } = await import('./client-config.ts');
  return { loadClientConfig, clientConfigNow, fetch };
}

describe('loadClientConfig', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("takes the configuration the server wrote into the page, without a request", async () => {
    const { loadClientConfig, clientConfigNow, fetch } = await onPage('{"mediaBaseUrl":"ws://page/media"}');
    expect(clientConfigNow()).toMatchObject({ mediaBaseUrl: 'ws://page/media' });
    expect(await loadClientConfig()).toMatchObject({ mediaBaseUrl: 'ws://page/media' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fetches config.json once where the page has none (the development server) or an unreadable one', async () => {
    for (const text of [null, '{not json']) {
      const { loadClientConfig, clientConfigNow, fetch } = await onPage(text);
      // Not there until fetched: whoever needs it now awaits it.
      expect(clientConfigNow()).toBeNull();
      expect(await loadClientConfig()).toMatchObject({ mediaBaseUrl: 'ws://fetched/media' });
      expect(clientConfigNow()).toMatchObject({ mediaBaseUrl: 'ws://fetched/media' });
      await loadClientConfig();
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });
});
