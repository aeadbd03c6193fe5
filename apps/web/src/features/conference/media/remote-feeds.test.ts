import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JanusJS } from 'janus-gateway';
import { CallModel } from '../model/call-model.ts';
import { NAMED_REFUSAL_REST_MS } from '../model/subscription-plan.ts';
import { RemoteFeeds, RETRY_AFTER_FAILURE_MS, type RemoteFeedsOptions } from './remote-feeds.ts';

/**
 * janus.js as RemoteFeeds sees it: `attach` hands over a handle at once; the handle's `send` records each request
 * and, while `down` (janus.js between a broken socket and its resumed session), fails it at once, inside `send`,
 * as janus.js's own sendMessage does ("Is the server down? (connected=false)").
 */
function fakeJanus() {
  const sent: Record<string, unknown>[] = [];
  const link = {
    down: false,
    onmessage: null as null | ((msg: JanusJS.Message, jsep?: JanusJS.JSEP) => void),
    onremotetrack: null as null | ((track: MediaStreamTrack, mid: string, on: boolean) => void),
    iceState: null as null | ((state: RTCIceConnectionState) => void),
    handle: null as null | Record<string, unknown>,
  };
  const handle: Record<string, unknown> & { webrtcStuff: object } = {
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
    attach(callbacks: { success(h: typeof handle): void; onmessage(msg: JanusJS.Message, jsep?: JanusJS.JSEP): void; onremotetrack(track: MediaStreamTrack, mid: string, on: boolean): void; iceState(state: RTCIceConnectionState): void }) {
      link.onmessage = callbacks.onmessage;
      link.iceState = callbacks.iceState;
      link.onremotetrack = callbacks.onremotetrack;
      link.handle = handle;
      callbacks.success(handle);
    },
  };
  return { janus: janus as unknown as JanusJS.Janus, sent, link };
}

/** RemoteFeeds on the fake janus.js, in room 1, with nothing listening unless `options` says otherwise. */
function remoteFeeds(janus: JanusJS.Janus, options: Partial<RemoteFeedsOptions> = {}): RemoteFeeds {
  return new RemoteFeeds({
    janus,
    e2ee: { protect: () => {}, declare: (j) => ({ ...j, e2ee: true }) },
    roomId: 1,
    model: new CallModel(),
    onReconnecting: () => {},
    onConnected: () => {},
    onAnswered: () => {},
    onGaveUp: () => {},
    ...options,
  });
}

describe('RemoteFeeds while the signalling socket is down', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does not retry a request that janus.js failed inside send in the same turn (the page froze so), but after a pause and at once when the socket is back', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = remoteFeeds(janus);
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
    expect(last).toEqual({ request: 'configure', streams: [{ mid: '0', substream: 0 }] });
    link.onmessage!({ videoroom: 'event', configured: 'ok' });
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS * 4);
    expect(sent.at(-1)).toBe(last);
    feeds.close();
  });

  it('counts an ICE restart only once it got out to Janus, and drops one never sent when ICE comes back by itself', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = remoteFeeds(janus);
    feeds.sync(new Map([[11, 'camera-a']]));
    const pc = { iceConnectionState: 'connected' as RTCIceConnectionState, connectionState: 'connected' };
    const handle = link.handle as unknown as { webrtcStuff: { pc: typeof pc }; createAnswer(o: { success(a: JanusJS.JSEP): void }): void };
    handle.webrtcStuff.pc = pc;
    handle.createAnswer = ({ success }) => success({ type: 'answer', sdp: 'v=0' });
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] }, { type: 'offer', sdp: 'v=0' });
    expect(feeds.restartRequests).toEqual({ asked: 0, pending: false });
    const restarts = () => sent.filter((m) => m.restart === true).length;

    // The link is cut: ICE reads disconnected, and after the grace the restart cannot be sent on the dead socket.
    link.down = true;
    pc.iceConnectionState = 'disconnected';
    link.iceState!('disconnected');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(restarts()).toBe(1);
    expect(feeds.restartRequests).toEqual({ asked: 0, pending: true });
    // The link is back and ICE connects again on the old path: nothing is left to ask, also after the resume.
    pc.iceConnectionState = 'connected';
    link.iceState!('connected');
    expect(feeds.restartRequests).toEqual({ asked: 0, pending: false });
    link.down = false;
    feeds.resumed();
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS * 2);
    expect(restarts()).toBe(1);

    // One that does get out counts, and is pending until Janus's offer comes.
    pc.iceConnectionState = 'disconnected';
    link.iceState!('disconnected');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(restarts()).toBe(2);
    expect(feeds.restartRequests).toEqual({ asked: 1, pending: true });
    link.onmessage!({ videoroom: 'event', configured: 'ok' }, { type: 'offer', sdp: 'v=0' });
    expect(feeds.restartRequests).toEqual({ asked: 1, pending: false });
    feeds.close();
  });
});

describe('RemoteFeeds refused by Janus for one feed', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the other feeds again at once, in a join and in an update, and for the named one after a short rest, longer each time', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = remoteFeeds(janus);
    const feedsOf = (m: Record<string, unknown>) => ((m.streams ?? m.subscribe) as { feed: number }[]).map((s) => s.feed);
    // Feed 12's publisher is still connecting: Janus refuses the whole join for it.
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b'], [13, 'camera-c']]));
    expect(feedsOf(sent.at(-1)!)).toEqual([11, 12, 13]);
    link.onmessage!({ videoroom: 'event', error_code: 428, error: 'No such feed (12)' });
    await Promise.resolve();
    expect(sent.at(-1)!.request).toBe('join');
    expect(feedsOf(sent.at(-1)!)).toEqual([11, 13]);
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }, { mid: '1', feed_id: 13, type: 'video', active: true }] });

    // An update refused for one feed: the other is asked for again at once, without the pause after a failure.
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b'], [13, 'camera-c'], [14, 'camera-d'], [15, 'camera-e']]));
    await Promise.resolve();
    expect(sent.at(-1)).toMatchObject({ request: 'update' });
    expect(feedsOf(sent.at(-1)!)).toEqual([14, 15]);
    link.onmessage!({ videoroom: 'event', error_code: 428, error: 'No such feed (14)' });
    await Promise.resolve();
    await Promise.resolve();
    expect(feedsOf(sent.at(-1)!)).toEqual([15]);
    link.onmessage!({ videoroom: 'updated', streams: [{ mid: '2', feed_id: 15, type: 'video', active: true }] });

    // After their short rest the refused feeds are asked for again; refused once more, 12 rests twice as long.
    const requests = () => sent.filter((m) => m.request === 'update').length;
    await vi.advanceTimersByTimeAsync(NAMED_REFUSAL_REST_MS + 20);
    expect(feedsOf(sent.at(-1)!)).toEqual([12, 14]);
    link.onmessage!({ videoroom: 'event', error_code: 428, error: 'No such feed (12)' });
    await vi.advanceTimersByTimeAsync(1);
    expect(feedsOf(sent.at(-1)!)).toEqual([14]);
    link.onmessage!({ videoroom: 'updated', streams: [{ mid: '3', feed_id: 14, type: 'video', active: true }] });
    const before = requests();
    await vi.advanceTimersByTimeAsync(NAMED_REFUSAL_REST_MS + 20);
    expect(requests()).toBe(before);
    await vi.advanceTimersByTimeAsync(NAMED_REFUSAL_REST_MS);
    expect(feedsOf(sent.at(-1)!)).toEqual([12]);
    feeds.close();
  });
});

describe('RemoteFeeds answering an offer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the received streams, and says it has answered, only once the answer has gone to Janus (the call screen does not render in between)', () => {
    vi.stubGlobal('MediaStream', class {
      constructor(readonly tracks: MediaStreamTrack[]) {}
    });
    const { janus, sent, link } = fakeJanus();
    const model = new CallModel();
    const onAnswered = vi.fn();
    const feeds = remoteFeeds(janus, { model, onAnswered });
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b']]));
    const handle = link.handle!;
    let answered: ((answer: JanusJS.JSEP) => void) | null = null;
    handle.createAnswer = ({ success }: { success: (answer: JanusJS.JSEP) => void }) => {
      // janus.js applies the offer first: every track arrives before the answer exists.
      link.onremotetrack!({ kind: 'video', readyState: 'live' } as MediaStreamTrack, '0', true);
      link.onremotetrack!({ kind: 'video', readyState: 'live' } as MediaStreamTrack, '1', true);
      answered = success;
    };
    link.onmessage!(
      { videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }, { mid: '1', feed_id: 12, type: 'video', active: true }] },
      { type: 'offer', sdp: 'v=0' },
    );
    expect(Object.keys(model.getState().media)).toEqual([]);
    expect(onAnswered).not.toHaveBeenCalled();
    answered!({ type: 'answer', sdp: 'v=0' });
    expect(sent.at(-1)).toEqual({ request: 'start' });
    expect(onAnswered).toHaveBeenCalledTimes(1);
    expect(Object.keys(model.getState().media).sort()).toEqual(['camera-a', 'camera-b']);
    feeds.close();
  });
});

describe('RemoteFeeds asking for layers', () => {
  it('sends a new layer wish without waiting for the answer to the last (on a congested downlink it comes late), and a late answer does not end a subscription change under way', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = remoteFeeds(janus);
    feeds.sync(new Map([[11, 'camera-a']]));
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] });
    await Promise.resolve();

    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 1 }]]));
    feeds.setVideoWants(new Map([['camera-a', { send: false }]]));
    expect(sent.filter((m) => m.request === 'configure').map((m) => m.streams)).toEqual([[{ mid: '0', substream: 1 }], [{ mid: '0', send: false }]]);

    // A new feed: the update goes, and while it is under way the late answers to both configures come in.
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b']]));
    expect(sent.at(-1)).toEqual({ request: 'update', subscribe: [{ feed: 12 }] });
    link.onmessage!({ videoroom: 'event', configured: 'ok' });
    link.onmessage!({ videoroom: 'event', configured: 'ok' });
    await Promise.resolve();
    // Still under way: another change waits for Janus's answer to the update, not for those.
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b'], [13, 'camera-c']]));
    expect(sent.filter((m) => m.request === 'update')).toHaveLength(1);
    feeds.close();
  });

  it('asks for no layer before its connection has first come up (the key frames Janus asks for then cannot reach it), and goes on while it is down later', async () => {
    const { janus, sent, link } = fakeJanus();
    const feeds = remoteFeeds(janus);
    feeds.sync(new Map([[11, 'camera-a']]));
    const pc = { connectionState: 'connecting' };
    (link.handle as unknown as { webrtcStuff: { pc: typeof pc } }).webrtcStuff.pc = pc;
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] });
    await Promise.resolve();
    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 0 }]]));
    expect(sent.filter((m) => m.request === 'configure')).toHaveLength(0);
    pc.connectionState = 'connected';
    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 0 }]]));
    expect(sent.filter((m) => m.request === 'configure').map((m) => m.streams)).toEqual([[{ mid: '0', substream: 0 }]]);
    // Down again later (a congested link): a step down still goes.
    pc.connectionState = 'disconnected';
    feeds.setVideoWants(new Map([['camera-a', { send: false }]]));
    expect(sent.filter((m) => m.request === 'configure').map((m) => m.streams).at(-1)).toEqual([{ mid: '0', send: false }]);
    feeds.close();
  });

  it('asks for a new video at the layer its tile needs, and takes that as what Janus holds: the first wish for it sends nothing', async () => {
    const { janus, sent, link } = fakeJanus();
    const firstLayer = (streamId: string) => (streamId === 'camera-a' ? ({ substream: 0, temporal: 2 } as const) : null);
    const feeds = remoteFeeds(janus, { firstLayer });
    feeds.sync(new Map([[11, 'camera-a']]));
    expect(sent.at(-1)).toMatchObject({ request: 'join', streams: [{ feed: 11, substream: 0 }] });
    link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] });
    await Promise.resolve();
    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 0, temporal: 2 }]]));
    expect(sent.filter((m) => m.request === 'configure')).toHaveLength(0);

    // A feed without a tile yet is asked for as Janus sends it; its first wish then says the layer.
    feeds.sync(new Map([[11, 'camera-a'], [12, 'camera-b']]));
    expect(sent.at(-1)).toEqual({ request: 'update', subscribe: [{ feed: 12 }] });
    link.onmessage!({ videoroom: 'updated', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }, { mid: '1', feed_id: 12, type: 'video', active: true }] });
    link.onmessage!({ videoroom: 'event', configured: 'ok' });
    await Promise.resolve();
    feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 0, temporal: 2 }], ['camera-b', { send: true, substream: 0, temporal: 2 }]]));
    expect(sent.filter((m) => m.request === 'configure').map((m) => m.streams)).toEqual([[{ mid: '1', substream: 0 }]]);
    feeds.close();
  });

  it('says send: true again when turning a video back on failed (Janus still holds it off)', async () => {
    vi.useFakeTimers();
    try {
      const { janus, sent, link } = fakeJanus();
      const feeds = remoteFeeds(janus);
      feeds.sync(new Map([[11, 'camera-a']]));
      link.onmessage!({ videoroom: 'attached', streams: [{ mid: '0', feed_id: 11, type: 'video', active: true }] });
      await Promise.resolve();
      feeds.setVideoWants(new Map([['camera-a', { send: false }]]));
      link.down = true;
      feeds.setVideoWants(new Map([['camera-a', { send: true, substream: 1 }]]));
      link.down = false;
      await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS * 2);
      const configures = sent.filter((m) => m.request === 'configure').map((m) => m.streams);
      expect(configures[0]).toEqual([{ mid: '0', send: false }]);
      expect(configures.slice(1)).toEqual([[{ mid: '0', send: true, substream: 1 }], [{ mid: '0', send: true, substream: 1 }]]);
      feeds.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
