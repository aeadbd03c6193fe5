import { describe, expect, it } from 'vitest';
import { MEETING_MAX_PARTICIPANTS, WEBCAST_MAX_PRESENTERS } from '@videomote/contract/meetings';
import { loadConfig } from './config.ts';
import { DEFAULT_MEDIA_LIMITS, DEFAULT_RTP_PORT_RANGE, INSTANCE_CAPACITY, ROOM_PUBLISHERS, instancePeerConnections, limitsFor, portsIn, rtpPortRangeFor } from './media-capacity.ts';

describe('media capacity', () => {
  it('lets a full meeting of the per-feed web client fit its cap: every participant publishing camera and screen, subscribing to all others', () => {
    const n = MEETING_MAX_PARTICIPANTS;
    // Worst case of one subscriber handle per feed: each of n publishes 2 and subscribes to the other n-1 cameras and one share.
    expect(n * 2 + n * (n - 1 + 1)).toBeLessThanOrEqual(DEFAULT_MEDIA_LIMITS.perMeeting);
    expect(DEFAULT_MEDIA_LIMITS.perParticipant).toBeGreaterThanOrEqual(ROOM_PUBLISHERS + 2);
    // A webcast's presenters (spec: at most 8) publish 2 each and still leave room for viewers.
    expect(DEFAULT_MEDIA_LIMITS.perWebcast - WEBCAST_MAX_PRESENTERS * 2).toBeGreaterThan(300);
  });

  it('sizes the default RTP range for the stated capacity with headroom, one port per PeerConnection', () => {
    const needed = instancePeerConnections();
    expect(needed).toBe(INSTANCE_CAPACITY.webcasts * DEFAULT_MEDIA_LIMITS.perWebcast + INSTANCE_CAPACITY.meetings * DEFAULT_MEDIA_LIMITS.perMeeting);
    expect(needed).toBe(880);
    expect(DEFAULT_RTP_PORT_RANGE).toBe('20000-20999');
    expect(portsIn(DEFAULT_RTP_PORT_RANGE)).toBeGreaterThanOrEqual(needed * 1.1);
    expect(rtpPortRangeFor(90)).toBe('20000-20099');
    expect(rtpPortRangeFor(91, 30000)).toBe('30000-30199');
  });

  it('reads the limits and the port range from the environment, refusing a malformed range', () => {
    expect(loadConfig({}).janusRtpPortRange).toBe(DEFAULT_RTP_PORT_RANGE);
    expect(loadConfig({}).mediaLimits).toEqual(DEFAULT_MEDIA_LIMITS);
    const c = loadConfig({ JANUS_RTP_PORT_RANGE: '40000-40099', MEDIA_PARTICIPANT_PEER_CONNECTIONS: '5', MEDIA_MEETING_PEER_CONNECTIONS: '30', MEDIA_WEBCAST_PEER_CONNECTIONS: '50' });
    expect(c.janusRtpPortRange).toBe('40000-40099');
    expect(limitsFor(0, c.mediaLimits)).toEqual({ perPerson: 5, perMeeting: 30 });
    expect(limitsFor(1, c.mediaLimits)).toEqual({ perPerson: 5, perMeeting: 50 });
    for (const bad of ['20000', '20100-20000', 'x-y', '0-10', '20000-70000']) expect(() => loadConfig({ JANUS_RTP_PORT_RANGE: bad }), bad).toThrow(/JANUS_RTP_PORT_RANGE/);
    expect(portsIn('20000-20000')).toBe(1);
  });
});
