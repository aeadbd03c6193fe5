import { describe, expect, it } from 'vitest';
import type { ClientConfig } from '@videomote/contract/identity';
import { withClientConfig } from './client-config.ts';

describe('withClientConfig', () => {
  it('puts the configuration in a data block before </head>, with < escaped so no value can end the block', () => {
    const config = { environment: '</script><script>alert(1)</script>' } as unknown as ClientConfig;
    const html = withClientConfig('<html><head><title>x</title></head><body></body></html>', config);
    expect(html).toBe('<html><head><title>x</title>    <script type="application/json" id="client-config">{"environment":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}</script>\n  </head><body></body></html>');
    expect(JSON.parse(html.match(/id="client-config">(.*?)<\/script>/)![1]!)).toEqual(config);
  });

  it("gives the test system's strip its room from the first paint, and only on a test system", () => {
    const page = '<!doctype html>\n<html lang="sv">\n<head></head><body></body></html>';
    expect(withClientConfig(page, { testIdp: true } as ClientConfig)).toContain('<html lang="sv" class="test-system">');
    expect(withClientConfig(page, { testIdp: false } as ClientConfig)).toContain('<html lang="sv">');
  });
});
