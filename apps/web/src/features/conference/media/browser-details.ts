/**
 * What janus.js reads of webrtc-adapter: only `browserDetails` (Firefox: no codec preferences; Safari from WebKit 605:
 * VP8 check; Chrome and Safari: its stats shortcut). The adapter's shims themselves are for browsers older than any
 * we support (Chromium and Firefox have had the standard API for years), and loading it cost a fetch and a long
 * evaluation on the way into every call, so janus.js gets this instead. Told the way the adapter tells them.
 */
export interface BrowserDetails {
  browser: 'chrome' | 'firefox' | 'safari' | 'unknown';
  version: number | null;
}

export function browserDetailsOf(userAgent: string): BrowserDetails {
  const version = (pattern: RegExp): number | null => {
    const m = pattern.exec(userAgent);
    return m ? Number(m[1]) : null;
  };
  // Firefox on iOS (FxiOS) and Chrome there (CriOS) are WebKit, and so Safari to WebRTC, as the adapter says too.
  const firefox = version(/Firefox\/(\d+)\./);
  if (firefox !== null) return { browser: 'firefox', version: firefox };
  const chrome = version(/Chrom(?:e|ium)\/(\d+)\./);
  if (chrome !== null) return { browser: 'chrome', version: chrome };
  const webkit = version(/AppleWebKit\/(\d+)\./);
  if (webkit !== null) return { browser: 'safari', version: webkit };
  return { browser: 'unknown', version: null };
}
