import { describe, expect, it } from 'vitest';
import type { EarlyCall } from './call-start.ts';
import { openingCall, takeOpeningCall } from './opening-call.ts';

describe('the call the early-start script opens', () => {
  const call = { meetingId: 'm1' } as EarlyCall;

  it('goes to the loader of its own meeting, once: a second loader starts its own call', async () => {
    openingCall('m1', Promise.resolve(call));
    expect(await takeOpeningCall('m1')).toBe(call);
    expect(takeOpeningCall('m1')).toBeNull();
  });

  it('is not taken for another meeting, and is gone after that ask', () => {
    openingCall('m1', Promise.resolve(call));
    expect(takeOpeningCall('m2')).toBeNull();
    expect(takeOpeningCall('m1')).toBeNull();
  });

  it('makes an early loader wait for the call being made rather than start a second one', async () => {
    let made: (c: EarlyCall) => void = () => {};
    openingCall('m1', new Promise((resolve) => (made = resolve)));
    const taken = takeOpeningCall('m1');
    made(call);
    expect(await taken).toBe(call);
  });
});
