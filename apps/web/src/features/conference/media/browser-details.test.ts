import { describe, expect, it } from 'vitest';
import { browserDetailsOf } from './browser-details.ts';

describe('browserDetailsOf (what janus.js reads of webrtc-adapter)', () => {
  it('tells Chromium, Chrome and Edge as chrome with their major version', () => {
    expect(browserDetailsOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36')).toEqual({ browser: 'chrome', version: 156 });
    expect(browserDetailsOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/120.0.6099.71 Safari/537.36')).toEqual({ browser: 'chrome', version: 120 });
    expect(browserDetailsOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toEqual({ browser: 'chrome', version: 131 });
    expect(browserDetailsOf('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36')).toEqual({ browser: 'chrome', version: 130 });
  });

  it('tells Firefox as firefox', () => {
    expect(browserDetailsOf('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0')).toEqual({ browser: 'firefox', version: 153 });
  });

  it('tells Safari, and the browsers on iOS (all WebKit), as safari with the WebKit build janus.js compares', () => {
    expect(browserDetailsOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15')).toEqual({ browser: 'safari', version: 605 });
    expect(browserDetailsOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1')).toEqual({ browser: 'safari', version: 605 });
    expect(browserDetailsOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15')).toEqual({ browser: 'safari', version: 605 });
  });

  it('says unknown for anything else', () => {
    expect(browserDetailsOf('curl/8.0')).toEqual({ browser: 'unknown', version: null });
  });
});
