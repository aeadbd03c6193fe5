import { describe, expect, it } from 'vitest';
import { capSender, layerActive, replaceSent, stillWhileOff } from './own-publisher.ts';

/** A peer connection as far as these helpers read it: its senders and transceivers (a browser API, faked). */
function connection(kinds: ('audio' | 'video')[], encodings: RTCRtpEncodingParameters[][]) {
  const set: RTCRtpSendParameters[] = [];
  const replaced: (MediaStreamTrack | null)[] = [];
  const senders = kinds.map((kind, i) => ({
    track: { kind },
    getParameters: () => ({ encodings: encodings[i]!.map((e) => ({ ...e })) }),
    setParameters: async (p: RTCRtpSendParameters) => void set.push(p),
    replaceTrack: async (t: MediaStreamTrack | null) => void replaced.push(t),
  }));
  const transceivers = kinds.map((kind, i) => ({ receiver: { track: { kind } }, direction: 'sendonly', sender: senders[i] }));
  const pc = { getSenders: () => senders, getTransceivers: () => transceivers } as unknown as RTCPeerConnection;
  return { pc, set, replaced };
}

describe('own publisher senders', () => {
  it('sends every layer while the camera is on and only the top one while it is off', () => {
    expect([undefined, 'l', 'm', 'h'].map((rid) => layerActive(rid, true))).toEqual([true, true, true, true]);
    expect([undefined, 'l', 'm', 'h'].map((rid) => layerActive(rid, false))).toEqual([false, false, false, true]);
  });

  it('pauses the lower simulcast layers of a camera turned off, and leaves a single-layer sender alone', async () => {
    const simulcast = connection(['audio', 'video'], [[{}], [{ rid: 'l' }, { rid: 'm' }, { rid: 'h' }]]);
    await stillWhileOff(simulcast.pc, false);
    expect(simulcast.set[0]!.encodings.map((e) => e.active)).toEqual([false, false, true]);
    const single = connection(['video'], [[{}]]);
    await stillWhileOff(single.pc, false);
    expect(single.set).toEqual([]);
    await stillWhileOff(undefined, false); // no connection yet
  });

  it('caps the screen sender at the given bit rate', async () => {
    const screen = connection(['video'], [[{}]]);
    await capSender(screen.pc, 1_500_000);
    expect(screen.set[0]!.encodings[0]!.maxBitrate).toBe(1_500_000);
  });

  it('replaces the track of the media line of that kind only', async () => {
    const camera = connection(['audio', 'video'], [[{}], [{}]]);
    const track = { kind: 'video' } as MediaStreamTrack;
    await replaceSent(camera.pc, 'video', track);
    expect(camera.replaced).toEqual([track]);
    await replaceSent(undefined, 'audio', null); // no publisher: nothing to replace
    expect(camera.replaced).toEqual([track]);
  });
});
