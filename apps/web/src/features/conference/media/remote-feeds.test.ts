import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JanusJS } from 'janus-gateway';
import { CallModel } from '../model/call-model.ts';
import { RemoteFeeds, RETRY_AFTER_FAILURE_MS } from './remote-feeds.ts';

/**
 * janus.js as RemoteFeeds sees it: `attach` hands over a handle at once; the handle's `send` records each request
 * and, while `down` (janus.js between a broken socket and its resumed session), fails it at once, inside `send`,
 * as janus.js's own sendMessage does ("Is the server down? (connected=false)").
 */
function fakeJanus() {
  const sent: Record<string, unknown>[] = [];
  const link = { down: false, onmessage: null as null | ((msg: JanusJS.Message) => void) };
  const handle = {
    send({ message, error }: { message: Record<string, unknown>; error?: (why: string) => void }) {
      sent.push(message);
      // After 100 requests the storm is ended here, so that a regression fails the assertions instead of hanging.
      if (link.down && sent.length < 100) error?.('Is the server down? (connected=false)');
    },
    hangup() {},
    detach() {},
    webrtcStuff: {},
  };
  const janus = {
    attach(callbacks: { success(h: typeof handle): void; onmessage(msg: JanusJS.Message): void }) {
      link.onmessage = callbacks.onmessage;
      callbacks.success(handle);
    },
  };
  return { janus: janus as unknown as JanusJS.Janus, sent, link };
}

describe('RemoteFeeds while the signalling socket is down', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does not retry a request that janus.js failed inside send in the same turn (the page froze so), but after a pause and at once when the socket is back', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = new RemoteFeeds({ janus, e2ee: { protect: () => {}, declare: (j) => ({ ...j, e2ee: true }) }, roomId: 1, model: new CallModel(), onReconnecting: () => {}, onConnected: () => {}, onGaveUp: () => {} });
    feeds.sync(new Map([[11, 'camera-a']]));
    expect(sent.map((m) => m.request)).toEqual(['join']);
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] });

    link.down = true;
    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 0 }]]));
    await Promise.resolve(); // the microtasks of this turn: an immediate retry would show here
    await Promise.resolve();
    expect(sent.filter((m) => m.request === 'configure')).toHaveLength(1);

    // Still down: one more try per pause, not a storm.
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS * 4 + 50);
    const tries = sent.filter((m) => m.request === 'configure').length;
    expect(tries).toBeGreaterThanOrEqual(3);
    expect(tries).toBeLessThanOrEqual(5);

    // The socket is back (the session resumed): the layer is asked for at once and nothing more after it.
    link.down = false;
    feeds.resumed();
    await Promise.resolve();
    const last = sent.at(-1)!;
    expect(last).toEqual({ request: 'configure', streams: [{ mid: '0', send: true, substream: 0 }] });
    link.onmessage!({ videoroom: 'event', configured: 'ok' });
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS * 4);
    expect(sent.at(-1)).toBe(last);
    feeds.close();
  });
});
