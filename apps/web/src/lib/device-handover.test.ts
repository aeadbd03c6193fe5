import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceHandover } from './device-handover.ts';

function track(kind: 'audio' | 'video') {
  const t = { kind, readyState: 'live' as MediaStreamTrackState, stop: vi.fn(() => (t.readyState = 'ended')) };
  return t;
}

describe('DeviceHandover', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands the lobby tracks to the call of the meeting joined, once', () => {
    const handover = new DeviceHandover<ReturnType<typeof track>>(10_000);
    const [audio, video] = [track('audio'), track('video')];
    handover.joining('m1');
    handover.release([video, audio]);
    expect(handover.take('m1')).toEqual({ audio, video });
    expect(handover.take('m1')).toBeNull();
    vi.advanceTimersByTime(20_000);
    expect(audio.stop).not.toHaveBeenCalled();
    expect(video.stop).not.toHaveBeenCalled();
  });

  it('stops the tracks when the lobby closes without a join (back, another page)', () => {
    const handover = new DeviceHandover<ReturnType<typeof track>>(10_000);
    const tracks = [track('audio'), track('video')];
    handover.release(tracks);
    expect(tracks.every((t) => t.readyState === 'ended')).toBe(true);
    expect(handover.take('m1')).toBeNull();
  });

  it('stops held tracks nobody takes in time, and those of another meeting', () => {
    const handover = new DeviceHandover<ReturnType<typeof track>>(10_000);
    const late = [track('audio'), track('video')];
    handover.joining('m1');
    handover.release(late);
    vi.advanceTimersByTime(10_000);
    expect(late.every((t) => t.readyState === 'ended')).toBe(true);
    expect(handover.take('m1')).toBeNull();

    const other = [track('audio'), track('video')];
    handover.joining('m1');
    handover.release(other);
    expect(handover.take('m2')).toBeNull();
    expect(other.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('hands nothing when a device is missing or has ended: the call opens both itself', () => {
    const handover = new DeviceHandover<ReturnType<typeof track>>(10_000);
    const audioOnly = track('audio');
    handover.joining('m1');
    handover.release([audioOnly]);
    expect(handover.take('m1')).toBeNull();
    expect(audioOnly.readyState).toBe('ended');

    const [audio, video] = [track('audio'), track('video')];
    handover.joining('m1');
    handover.release([audio, video]);
    video.readyState = 'ended'; // unplugged meanwhile
    expect(handover.take('m1')).toBeNull();
    expect(audio.stop).toHaveBeenCalled();
  });
});
