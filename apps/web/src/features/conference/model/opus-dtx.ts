/**
 * Opus discontinuous transmission (DTX) asked for in a publisher's offer: while its microphone hears silence, the
 * browser sends a comfort-noise frame every 400 ms instead of a frame every 20 ms. In a call most people are silent
 * most of the time, so their uplink carries a few kbit/s of audio instead of ~40, which a weak mobile link needs, and
 * every other page decrypts and decodes a fraction of their audio frames (end-to-end encryption handles each one).
 *
 * Janus 1.1.2 negotiates DTX only when the publisher's offer has `usedtx=1` in its Opus `fmtp` (the room's `opus_dtx`
 * setting is stored, not used): its answer then says `usedtx=1` too, and the browser's Opus encoder follows the
 * answer. Offers without Opus, or whose Opus line says `usedtx` already, are left as they are.
 */
export function withOpusDtx(sdp: string): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(eol);
  const opus = new Set<string>();
  for (const line of lines) {
    const pt = /^a=rtpmap:(\d+) opus\/48000/i.exec(line)?.[1];
    if (pt) opus.add(pt);
  }
  if (!opus.size) return sdp;
  const withFmtp = new Set<string>();
  const out = lines.map((line) => {
    const m = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (!m || !opus.has(m[1]!)) return line;
    withFmtp.add(m[1]!);
    return /(^|;)\s*usedtx=/.test(m[2]!) ? line : `${line};usedtx=1`;
  });
  // An Opus line without parameters gets its own fmtp line, right after its rtpmap.
  return out
    .flatMap((line) => {
      const pt = /^a=rtpmap:(\d+) opus\/48000/i.exec(line)?.[1];
      return pt && !withFmtp.has(pt) ? [line, `a=fmtp:${pt} usedtx=1`] : [line];
    })
    .join(eol);
}
