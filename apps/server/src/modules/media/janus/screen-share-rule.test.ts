import { describe, expect, it } from 'vitest';
import { screenPublishRefusal } from './screen-share-rule.ts';

describe('screenPublishRefusal', () => {
  it('refuses a connection without the screen-share capability, offer or not', () => {
    expect(screenPublishRefusal({ allowed: false, offer: false, otherSharing: false })).toBe('no screen-share capability');
    expect(screenPublishRefusal({ allowed: false, offer: true, otherSharing: false })).toBe('no screen-share capability');
  });
  it('refuses a second sharer\'s offer while another shares, but lets it join the room first', () => {
    expect(screenPublishRefusal({ allowed: true, offer: true, otherSharing: true })).toMatch(/take over first/);
    expect(screenPublishRefusal({ allowed: true, offer: false, otherSharing: true })).toBeNull();
  });
  it('lets the one sharer publish', () => {
    expect(screenPublishRefusal({ allowed: true, offer: true, otherSharing: false })).toBeNull();
  });
});
