import { describe, expect, it } from 'vitest';
import type { AnnouncedConnection } from './call-model.ts';
import { heldAfter, namedRefusalRest, refusedFeed, restsEndedBy, inboundBytesByMid, judgeSubscriptions, midsOf, planConfigure, planUpdate, reconnectDelay, subscriptionStalled, triesAfterFailure, videoMidsOf, wantedFeeds, watchdogDelay, watchdogDue, SUBSCRIPTION_WATCHDOG_MS } from './subscription-plan.ts';

const conn = (id: string, feedId: number | null, screenFeedId: number | null = null): AnnouncedConnection => ({
  connectionId: id, participantId: null, displayName: id, feedId, screenFeedId, hasAudio: true, hasVideo: true, moderator: false, endToEnd: true,
});

describe('wanted feeds', () => {
  it('are every other connection\'s camera and screen feeds, never the own ones', () => {
    const wanted = wantedFeeds({ connectionId: 'me', connections: [conn('me', 1, 2), conn('a', 3), conn('b', null, 4), conn('c', null)] });
    expect([...wanted]).toEqual([[3, 'camera-a'], [4, 'screen-b']]);
  });
});

describe('subscription update plan', () => {
  const wanted = new Map([[3, 'camera-a'], [4, 'screen-b'], [5, 'camera-c']]);

  it('adds what is wanted and not asked for, drops what is asked for and no longer wanted, in a stable order', () => {
    expect(planUpdate([9, 3], wanted)).toEqual({ subscribe: [4, 5], unsubscribe: [9] });
    expect(planUpdate([5, 4, 3], wanted)).toEqual({ subscribe: [], unsubscribe: [] });
    expect(planUpdate([], new Map())).toEqual({ subscribe: [], unsubscribe: [] });
  });

  it('drops a resting feed and does not ask for it again while it rests', () => {
    expect(planUpdate([3, 4], wanted, new Set([4]))).toEqual({ subscribe: [5], unsubscribe: [4] });
    expect(planUpdate([3], wanted, new Set([4]))).toEqual({ subscribe: [5], unsubscribe: [] });
  });
});

describe('subscription watchdog', () => {
  it('waits longer for each failed try of the same feed, up to eight times', () => {
    expect([0, 1, 2, 3, 4, 9].map(watchdogDelay)).toEqual([1, 2, 4, 8, 8, 8].map((n) => n * SUBSCRIPTION_WATCHDOG_MS));
  });

  it('calls a subscription stalled only when nothing arrived within its delay', () => {
    expect(subscriptionStalled(0, SUBSCRIPTION_WATCHDOG_MS - 1, 0, 0)).toBe(false);
    expect(subscriptionStalled(0, SUBSCRIPTION_WATCHDOG_MS, 0, 0)).toBe(true);
    expect(subscriptionStalled(0, SUBSCRIPTION_WATCHDOG_MS * 10, 1, 0)).toBe(false);
    expect(subscriptionStalled(0, SUBSCRIPTION_WATCHDOG_MS * 3, 0, 2)).toBe(false);
  });
});

describe('reconnect back-off', () => {
  it('doubles from 0.5 s up to 8 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

describe('mids of a subscription', () => {
  it('maps the live streams\' mids to their feeds and skips inactive or malformed entries', () => {
    const mids = midsOf([
      { mid: '0', feed_id: 3 },
      { mid: '1', feed_id: 3 },
      { mid: '2', feed_id: 4, active: false },
      { mid: 3, feed_id: 5 },
      { mid: '4' },
    ]);
    expect([...mids]).toEqual([['0', 3], ['1', 3]]);
    expect(midsOf(undefined).size).toBe(0);
  });
});

describe('subscription watchdog', () => {
  const asked = new Map([
    [1, { askedAt: 0 }],
    [2, { askedAt: 0 }],
    [3, { askedAt: 15_000 }],
  ]);

  it('finds due the feeds asked for a watchdog delay ago, longer for each failed try', () => {
    expect(watchdogDue(asked, new Map(), SUBSCRIPTION_WATCHDOG_MS)).toEqual([1, 2]);
    expect(watchdogDue(asked, new Map([[2, 1]]), SUBSCRIPTION_WATCHDOG_MS)).toEqual([1]);
    expect(watchdogDue(asked, new Map([[2, 1]]), 2 * SUBSCRIPTION_WATCHDOG_MS)).toEqual([1, 2, 3]);
    expect(watchdogDue(asked, new Map(), SUBSCRIPTION_WATCHDOG_MS - 1)).toEqual([]);
  });

  it('sums inbound bytes per mid, ignoring other reports', () => {
    const bytes = inboundBytesByMid([
      { type: 'inbound-rtp', mid: '0', bytesReceived: 100 },
      { type: 'inbound-rtp', mid: '0', bytesReceived: 50 },
      { type: 'inbound-rtp', mid: '1' },
      { type: 'outbound-rtp', mid: '2', bytesReceived: 9 },
      { type: 'inbound-rtp', bytesReceived: 9 },
    ]);
    expect([...bytes]).toEqual([
      ['0', 150],
      ['1', 0],
    ]);
  });

  it('calls a due feed stalled when none of its mids received anything, flowing when one did', () => {
    const mids = new Map([
      ['0', 1],
      ['1', 1],
      ['2', 2],
    ]);
    const now = SUBSCRIPTION_WATCHDOG_MS;
    expect(judgeSubscriptions([1, 2], asked, mids, new Map([['1', 10]]), new Map(), now)).toEqual({ stalled: [2], flowing: [1] });
    // A feed without any mid yet has received nothing either.
    expect(judgeSubscriptions([1, 2], asked, new Map(), new Map(), new Map(), now)).toEqual({ stalled: [1, 2], flowing: [] });
    // A feed no longer asked for is left alone.
    expect(judgeSubscriptions([9], asked, mids, new Map(), new Map(), now)).toEqual({ stalled: [], flowing: [] });
  });
});

describe('a refused or dropped feed announced again', () => {
  const until = Date.now() + 1_500;
  const resting = new Map([
    [7, { until, refused: true }],
    [9, { until, refused: true }],
    [11, { until, refused: false }],
  ]);
  const wanted = (...feeds: number[]) => new Map(feeds.map((f) => [f, `camera-${f}`]));
  it('ends the rest of a resting feed the server announces (again) as published', () => {
    // Feed 7 was refused, then left the wanted set (the server said it was gone) and comes back: asked at once.
    expect(restsEndedBy(resting, wanted(9, 11), wanted(7, 9, 11))).toEqual([7]);
    // Newly wanted altogether (the server announces them only now): also at once, a silent one too.
    expect(restsEndedBy(resting, wanted(), wanted(11, 9, 7))).toEqual([7, 9, 11]);
  });
  it('ends the rests of refused feeds still wanted once a feed has left: the departure explains the refusal', () => {
    // Feeds 7 and 9 were asked together with 5, which had just gone; the server now says 5 left.
    expect(restsEndedBy(resting, wanted(5, 7, 9, 11), wanted(7, 9, 11))).toEqual([7, 9]);
    // A refused feed that itself left is not asked for.
    expect(restsEndedBy(resting, wanted(7, 9, 11), wanted(9, 11))).toEqual([9]);
  });
  it('keeps the rests while nothing is announced or leaves, and the rest of a silent feed on a departure', () => {
    expect(restsEndedBy(resting, wanted(7, 9, 11), wanted(7, 9, 11))).toEqual([]);
    expect(restsEndedBy(resting, wanted(7), wanted(7, 8))).toEqual([]);
    expect(restsEndedBy(resting, wanted(5, 11), wanted(11))).toEqual([]);
    expect(restsEndedBy(new Map(), wanted(5), wanted(7))).toEqual([]);
  });
  it('a refusal does not lengthen the watchdog as a silent subscription does', () => {
    expect(triesAfterFailure(0, 'refused')).toBe(0);
    expect(triesAfterFailure(2, 'refused')).toBe(2);
    expect(triesAfterFailure(0, 'stalled')).toBe(1);
    expect(watchdogDelay(triesAfterFailure(0, 'refused'))).toBe(SUBSCRIPTION_WATCHDOG_MS);
  });
});

describe('layer configure per mid', () => {
  const mids = new Set(['1', '3', '5']);

  it('asks only for the mids whose wish changed, and nothing when none did', () => {
    const wanted = new Map([
      ['1', { send: true, substream: 0, temporal: 1 }],
      ['3', { send: false }],
      ['5', { send: true, substream: 1, temporal: 2 }],
    ]);
    const held = new Map([['5', { send: true, substream: 1, temporal: 2 }]]);
    expect(planConfigure(wanted, held, mids)).toEqual([
      { mid: '1', substream: 0, temporal: 1 },
      { mid: '3', send: false },
    ]);
    const after = new Map([...wanted].map(([mid, want]) => [mid, heldAfter(held.get(mid), want)]));
    expect(planConfigure(wanted, after, mids)).toEqual([]);
  });

  it('says each field only when it differs from what Janus holds: each one said costs the camera a key frame', () => {
    const sending = new Map([['1', { send: true, substream: 2, temporal: 2 }]]);
    // A layer step of a stream Janus already sends: no send: true.
    expect(planConfigure(new Map([['1', { send: true, substream: 0, temporal: 1 }]]), sending, mids)).toEqual([{ mid: '1', substream: 0, temporal: 1 }]);
    // A step of the substream alone leaves the temporal layer unsaid.
    expect(planConfigure(new Map([['1', { send: true, substream: 1, temporal: 2 }]]), sending, mids)).toEqual([{ mid: '1', substream: 1 }]);
    // Back on after a pause: send; the layer Janus kept through the pause is not repeated.
    const paused = new Map([['1', heldAfter(sending.get('1'), { send: false })]]);
    expect(planConfigure(new Map([['1', { send: true, substream: 2, temporal: 2 }]]), paused, mids)).toEqual([{ mid: '1', send: true }]);
    expect(planConfigure(new Map([['1', { send: true, substream: 1, temporal: 2 }]]), paused, mids)).toEqual([{ mid: '1', send: true, substream: 1 }]);
  });

  it('counts a mid never configured as Janus starts it: sending, substream 2, temporal 2', () => {
    // A joiner's first wish: the substream only (naming temporal 2 as well cost each camera a second key frame).
    expect(planConfigure(new Map([['3', { send: true, substream: 0, temporal: 2 }]]), new Map(), mids)).toEqual([{ mid: '3', substream: 0 }]);
    expect(planConfigure(new Map([['3', { send: true, substream: 2, temporal: 2 }]]), new Map(), mids)).toEqual([]);
    expect(planConfigure(new Map([['1', { send: true }]]), new Map(), mids)).toEqual([]);
    expect(heldAfter(undefined, { send: true, substream: 0 })).toEqual({ send: true, substream: 0, temporal: 2 });
  });

  it('skips mids that are not live video', () => {
    expect(planConfigure(new Map([['2', { send: false }]]), new Map(), mids)).toEqual([]);
  });

  it('reads only live video streams from Janus’s list', () => {
    expect([...videoMidsOf([{ mid: '0', type: 'audio', feed_id: 1 }, { mid: '1', type: 'video', feed_id: 1 }, { mid: '2', type: 'video', active: false }])]).toEqual(['1']);
  });
});

describe('the feed Janus names when it refuses a subscription', () => {
  it('is the feed of "No such feed (…)" when the request asked for it; otherwise none, and the whole request rests', () => {
    const noSuchFeed = (feed: number) => ({ videoroom: 'event', error_code: 428, error: `No such feed (${feed})` });
    expect(refusedFeed(noSuchFeed(12), [11, 12, 13])).toBe(12);
    // Not a feed of this request (an answer to another), another error, or the relay's own refusal: none named.
    expect(refusedFeed(noSuchFeed(99), [11, 12])).toBeNull();
    expect(refusedFeed({ error_code: 436, error: 'Already in as a subscriber on this handle' }, [11])).toBeNull();
    expect(refusedFeed({ error_code: 403, error: 'Refused by Videomöte: feed not in this room' }, [11])).toBeNull();
    expect(refusedFeed({ error_code: 428, error: 'No such feed' }, [11])).toBeNull();
  });
  it('rests the named feed a quarter second, twice as long at each refusal in a row, never longer than any refused feed', () => {
    expect([0, 1, 2, 3, 10].map(namedRefusalRest)).toEqual([250, 500, 1000, 1500, 1500]);
  });
});
