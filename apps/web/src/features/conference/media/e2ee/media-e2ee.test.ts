import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMediaE2ee, takeMediaE2ee } from './media-e2ee.ts';

// Node has no encoded transforms nor workers: stand-ins that count the workers started and ended.
let started = 0;
let ended = 0;
const globals = globalThis as Record<string, unknown>;
beforeAll(() => {
  globals.RTCRtpScriptTransform = class {};
  globals.Worker = class {
    constructor() {
      started += 1;
    }
    terminate() {
      ended += 1;
    }
  };
});
afterAll(() => {
  delete globals.RTCRtpScriptTransform;
  delete globals.Worker;
});

describe('the encryption worker started ahead of a call', () => {
  it('goes to the next session, and none is started while a session uses its own', () => {
    prepareMediaE2ee();
    prepareMediaE2ee(); // the lobby and the meeting screen's code both ask: one worker
    expect(started).toBe(1);
    const first = takeMediaE2ee();
    expect(first.supported).toBe(true);
    expect(started).toBe(1);
    // The meeting screen's code arriving after its call has started (a meeting page opened directly): none.
    prepareMediaE2ee();
    expect(started).toBe(1);
    first.close();
    expect(ended).toBe(1);
    // No call on: the next lobby starts one ahead again, and the next session takes that one.
    prepareMediaE2ee();
    expect(started).toBe(2);
    takeMediaE2ee().close();
    expect(started).toBe(2);
    expect(ended).toBe(2);
  });
});
