import { describe, expect, it } from 'vitest';
import { withOpusDtx } from './opus-dtx.ts';

const offer = [
  'v=0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9',
  'a=mid:0',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'a=rtpmap:9 G722/8000',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'a=rtpmap:96 VP8/90000',
  '',
].join('\r\n');

describe('withOpusDtx', () => {
  it("adds usedtx=1 to Opus's parameters only, keeping the line endings", () => {
    const out = withOpusDtx(offer);
    expect(out).toContain('a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1\r\n');
    expect(out).toContain('a=fmtp:63 111/111\r\n'); // RED's redundancy list is not Opus's parameters
    expect(out.replace(';usedtx=1', '')).toBe(offer);
  });

  it('gives an Opus line without parameters a fmtp line of its own', () => {
    const out = withOpusDtx('m=audio 9 RTP/SAVPF 111\na=rtpmap:111 opus/48000/2\na=rtpmap:0 PCMU/8000\n');
    expect(out).toBe('m=audio 9 RTP/SAVPF 111\na=rtpmap:111 opus/48000/2\na=fmtp:111 usedtx=1\na=rtpmap:0 PCMU/8000\n');
  });

  it('leaves an offer alone that says usedtx already, or has no Opus', () => {
    const said = offer.replace('useinbandfec=1', 'useinbandfec=1;usedtx=0');
    expect(withOpusDtx(said)).toBe(said);
    const videoOnly = 'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n';
    expect(withOpusDtx(videoOnly)).toBe(videoOnly);
  });
});
