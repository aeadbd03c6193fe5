import { describe, expect, it } from 'vitest';
import { DEVICE_TEXTS, deviceError } from './media-errors.ts';
import { pickDevice, readPreferredLabel, writePreferredLabel } from './preferred-device.ts';
import { levelFromSamples, microphoneWorks } from './mic-level.ts';

const err = (name: string) => Object.assign(new Error(name), { name });

describe('deviceError', () => {
  it('maps a refusal to the one denied text, whichever device asked', () => {
    for (const name of ['NotAllowedError', 'PermissionDeniedError', 'SecurityError']) {
      expect(deviceError(err(name), 'camera')).toEqual({ kind: 'denied', message: DEVICE_TEXTS.denied, hint: null });
      expect(deviceError(err(name), 'microphone').kind).toBe('denied');
    }
  });
  it('says a busy camera is used by another application', () => {
    expect(deviceError(err('NotReadableError'), 'camera')).toMatchObject({ message: 'Det verkar som att denna kamera används i en annan applikation.' });
  });
  it('falls back to the per-device texts with the advice to check the devices', () => {
    expect(deviceError(err('NotFoundError'), 'camera')).toEqual({ kind: 'camera', message: 'Lyckades inte komma åt din kamera.', hint: DEVICE_TEXTS.checkDevices });
    expect(deviceError(err('NotReadableError'), 'microphone')).toEqual({ kind: 'microphone', message: 'Lyckades inte komma åt din mikrofon', hint: DEVICE_TEXTS.checkDevices });
    expect(deviceError('weird', 'microphone').message).toBe('Lyckades inte komma åt din mikrofon');
  });
});

describe('preferred devices', () => {
  const store = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
  };
  it('stores labels as JSON strings under video_device and audio_device', () => {
    const s = store();
    writePreferredLabel(s, 'video', 'fake_device_0');
    writePreferredLabel(s, 'audio', 'Fake Default Audio Input');
    expect(s.m.get('video_device')).toBe('"fake_device_0"');
    expect(s.m.get('audio_device')).toBe('"Fake Default Audio Input"');
    expect(readPreferredLabel(s, 'audio')).toBe('Fake Default Audio Input');
    writePreferredLabel(s, 'video', null);
    expect(s.m.has('video_device')).toBe(false);
    s.m.set('audio_device', 'not json');
    expect(readPreferredLabel(s, 'audio')).toBeNull();
  });
  it('matches the remembered label case-insensitively, else takes the first device', () => {
    const devices = [{ label: 'Inbyggd kamera' }, { label: 'USB-Kamera Å' }];
    expect(pickDevice(devices, 'usb-kamera å')).toBe(devices[1]);
    expect(pickDevice(devices, 'borta')).toBe(devices[0]);
    expect(pickDevice([], 'x')).toBeNull();
  });
});

describe('microphone level', () => {
  it('is zero for silence and rises with the amplitude', () => {
    expect(levelFromSamples(new Uint8Array(512).fill(128))).toBe(0);
    const tone = Uint8Array.from({ length: 512 }, (_, i) => 128 + Math.round(40 * Math.sin(i / 5)));
    expect(levelFromSamples(tone)).toBeGreaterThan(20);
    expect(levelFromSamples(Uint8Array.from({ length: 512 }, (_, i) => (i % 2 ? 255 : 0)))).toBe(100);
  });
  it('counts as working when the rounded level is above zero', () => {
    expect(microphoneWorks(0.4)).toBe(false);
    expect(microphoneWorks(0.5)).toBe(true);
  });
});
