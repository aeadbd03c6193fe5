import { describe, expect, it } from 'vitest';
import type { MediaConnection } from '@videomote/contract/media';
import { withoutLeftFeed } from './remote-feed-left.ts';

const erik: MediaConnection = {
  connectionId: 'c1',
  participantId: 'p1',
  displayName: 'Erik Handläggare',
  feedId: 11,
  screenFeedId: 12,
  hasAudio: true,
  hasVideo: true,
  moderator: true,
  endToEnd: true,
};

describe('withoutLeftFeed', () => {
  it('drops the camera feed that left, with its audio and video flags', () => {
    expect(withoutLeftFeed(erik, 11)).toEqual({ ...erik, feedId: null, hasAudio: false, hasVideo: false });
  });

  it('drops the screen share that left and keeps the camera', () => {
    expect(withoutLeftFeed(erik, 12)).toEqual({ ...erik, screenFeedId: null });
  });

  it('leaves a connection alone whose feeds are others (e.g. the camera already republished under a new id)', () => {
    expect(withoutLeftFeed(erik, 99)).toBeNull();
    expect(withoutLeftFeed({ ...erik, feedId: null, screenFeedId: null }, 11)).toBeNull();
  });
});
