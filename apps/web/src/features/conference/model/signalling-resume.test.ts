import { describe, expect, it } from 'vitest';
import { connectedOutcome } from './signalling-resume.ts';

describe('connectedOutcome', () => {
  it('adopts the first connection and the one of a fresh start', () => {
    expect(connectedOutcome({ connectionId: 'a' }, { resuming: false, connectionId: null })).toBe('fresh');
    expect(connectedOutcome({ connectionId: 'b', resumed: false }, { resuming: false, connectionId: 'a' })).toBe('fresh');
  });

  it('keeps everything when the node that holds the connection hands it back', () => {
    expect(connectedOutcome({ connectionId: 'a', resumed: true }, { resuming: true, connectionId: 'a' })).toBe('resumed');
  });

  it('starts afresh when a resume lands on a node that holds nothing (the old node is gone)', () => {
    expect(connectedOutcome({ connectionId: 'b', resumed: false }, { resuming: true, connectionId: 'a' })).toBe('startAfresh');
    expect(connectedOutcome({ connectionId: 'b' }, { resuming: true, connectionId: 'a' })).toBe('startAfresh');
  });

  it('starts afresh when handed a held connection that is not the page’s own', () => {
    // A fresh start given back what a failed resume left on the node (the key was reused): not the page's.
    expect(connectedOutcome({ connectionId: 'b', resumed: true }, { resuming: false, connectionId: 'a' })).toBe('startAfresh');
    expect(connectedOutcome({ connectionId: 'b', resumed: true }, { resuming: true, connectionId: 'a' })).toBe('startAfresh');
    expect(connectedOutcome({ connectionId: 'b', resumed: true }, { resuming: false, connectionId: null })).toBe('startAfresh');
  });
});
