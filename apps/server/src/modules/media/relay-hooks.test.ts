import { describe, expect, it } from 'vitest';
import type { Capabilities } from '@videomote/contract/media';
import { publishedAs, reportedState } from './relay-hooks.ts';

describe('publishedAs', () => {
  it('takes the first untagged publisher for the camera, and the same handle publishing again too', () => {
    expect(publishedAs(10, undefined, null)).toBe('camera');
    expect(publishedAs(10, undefined, 10)).toBe('camera');
  });
  it('takes a second publisher for the screen share, and a tagged one always, even with no camera publishing', () => {
    expect(publishedAs(11, undefined, 10)).toBe('screen');
    expect(publishedAs(11, 'screen', null)).toBe('screen');
    expect(publishedAs(10, 'screen', 10)).toBe('screen');
  });
});

describe('reportedState', () => {
  const publisher: Capabilities = { publish: true, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false };
  it("takes a publisher's microphone and camera state", () => {
    expect(reportedState({ videomote: 'state', hasAudio: true, hasVideo: false }, publisher)).toEqual({ hasAudio: true, hasVideo: false });
  });
  it('ignores it from one who may not publish (a webcast viewer), malformed, or another message', () => {
    expect(reportedState({ videomote: 'state', hasAudio: true, hasVideo: true }, { ...publisher, publish: false })).toBeNull();
    expect(reportedState({ videomote: 'state', hasAudio: 'yes', hasVideo: true }, publisher)).toBeNull();
    expect(reportedState({ videomote: 'ping' }, publisher)).toBeNull();
  });
});
