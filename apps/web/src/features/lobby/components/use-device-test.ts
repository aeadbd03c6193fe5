import { useCallback, useEffect, useRef, useState } from 'react';
import { deviceError, type DeviceError, type DeviceKind } from '../devices/media-errors.ts';
import { pickDevice, readPreferredLabel, writePreferredLabel } from '../devices/preferred-device.ts';
import { MicLevelMeter, microphoneWorks } from '../devices/mic-level.ts';
import { CAMERA_SIZE, deviceHandover } from '../../../lib/device-handover.ts';

export interface DeviceOption {
  deviceId: string;
  label: string;
}

export interface DeviceTestState {
  status: 'checking' | 'ready' | 'denied';
  cameras: DeviceOption[];
  microphones: DeviceOption[];
  /** '' = none chosen. */
  cameraId: string;
  microphoneId: string;
  videoStream: MediaStream | null;
  level: number;
  /** Sticky once the rounded level has been above zero: the microphone has been heard. */
  microphoneWorks: boolean;
  errors: Partial<Record<DeviceKind | 'denied', DeviceError>>;
}

const initial: DeviceTestState = {
  status: 'checking',
  cameras: [],
  microphones: [],
  cameraId: '',
  microphoneId: '',
  videoStream: null,
  level: 0,
  microphoneWorks: false,
  errors: {},
};

/** A refused permission is reported at once, without asking the browser (and the person) again. */
async function permissionDenied(): Promise<boolean> {
  if (!navigator.permissions?.query) return false;
  const states = await Promise.all(
    (['camera', 'microphone'] as const).map((name) =>
      navigator.permissions.query({ name: name as PermissionName }).then((s) => s.state, () => 'prompt' as const),
    ),
  );
  return states.includes('denied');
}

const options = (devices: MediaDeviceInfo[], kind: MediaDeviceKind, fallback: string): DeviceOption[] =>
  devices
    .filter((d) => d.kind === kind && d.deviceId)
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `${fallback} ${i + 1}` }));

/**
 * The lobby's device test: permission first, then the device lists, then one live stream per chosen device.
 * Choosing none stops that stream. Choices are remembered by label for the conference.
 */
export function useDeviceTest() {
  const [state, setState] = useState<DeviceTestState>(initial);
  const video = useRef<MediaStream | null>(null);
  const audio = useRef<MediaStream | null>(null);
  const meter = useRef<MicLevelMeter | null>(null);
  // Each new choice outdates a slower earlier request for the same kind.
  const generation = useRef({ camera: 0, microphone: 0 });
  const alive = useRef(true);

  const patch = useCallback((p: Partial<DeviceTestState> | ((s: DeviceTestState) => Partial<DeviceTestState>)) => {
    if (alive.current) setState((s) => ({ ...s, ...(typeof p === 'function' ? p(s) : p) }));
  }, []);

  const setError = useCallback(
    (kind: DeviceKind, error: DeviceError | null) =>
      patch((s) => {
        const errors = { ...s.errors };
        if (error?.kind === 'denied') errors.denied = error;
        else if (error) errors[kind] = error;
        else delete errors[kind];
        return { errors, status: error?.kind === 'denied' ? 'denied' : s.status };
      }),
    [patch],
  );

  const selectCamera = useCallback(
    async (deviceId: string) => {
      const turn = ++generation.current.camera;
      video.current?.getTracks().forEach((t) => t.stop());
      video.current = null;
      patch({ cameraId: deviceId, videoStream: null });
      if (!deviceId) return setError('camera', null);
      try {
        const stream = await navigator.mediaDevices.getUserMedia({ video: { deviceId: { exact: deviceId }, ...CAMERA_SIZE } });
        if (turn !== generation.current.camera || !alive.current) return stream.getTracks().forEach((t) => t.stop());
        video.current = stream;
        patch({ videoStream: stream });
        setError('camera', null);
      } catch (e) {
        if (turn === generation.current.camera) setError('camera', deviceError(e, 'camera'));
      }
    },
    [patch, setError],
  );

  const selectMicrophone = useCallback(
    async (deviceId: string) => {
      const turn = ++generation.current.microphone;
      meter.current?.stop();
      audio.current?.getTracks().forEach((t) => t.stop());
      audio.current = null;
      patch({ microphoneId: deviceId, level: 0 });
      if (!deviceId) return setError('microphone', null);
      try {
        const stream = await navigator.mediaDevices.getUserMedia({ audio: { deviceId: { exact: deviceId } } });
        if (turn !== generation.current.microphone || !alive.current) return stream.getTracks().forEach((t) => t.stop());
        audio.current = stream;
        setError('microphone', null);
        meter.current ??= new MicLevelMeter();
        let last = 0;
        meter.current.start(stream, (level) => {
          const now = performance.now();
          if (now - last < 100) return; // ten updates a second is plenty for the eye and spares the CPU
          last = now;
          patch((s) => ({ level, microphoneWorks: s.microphoneWorks || microphoneWorks(level) }));
        });
      } catch (e) {
        if (turn === generation.current.microphone) setError('microphone', deviceError(e, 'microphone'));
      }
    },
    [patch, setError],
  );

  /** The person's choice in a dropdown: switch the stream and remember the label for the conference. */
  const choose = useCallback(
    (kind: DeviceKind, deviceId: string) => {
      const list = kind === 'camera' ? state.cameras : state.microphones;
      writePreferredLabel(localStorage, kind === 'camera' ? 'video' : 'audio', list.find((d) => d.deviceId === deviceId)?.label ?? null);
      return kind === 'camera' ? selectCamera(deviceId) : selectMicrophone(deviceId);
    },
    [state.cameras, state.microphones, selectCamera, selectMicrophone],
  );

  useEffect(() => {
    alive.current = true;
    void (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setError('camera', deviceError(null, 'camera'));
        setError('microphone', deviceError(null, 'microphone'));
        return patch({ status: 'ready' });
      }
      if (await permissionDenied()) return setError('camera', deviceError({ name: 'NotAllowedError' }, 'camera'));
      // One request for both: the browser asks once, and device labels become readable.
      try {
        const probe = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
        probe.getTracks().forEach((t) => t.stop());
      } catch (e) {
        const error = deviceError(e, 'camera');
        if (error.kind === 'denied') return setError('camera', error);
        // One device may still work on its own: each is tried below and reports its own error.
      }
      if (!alive.current) return;
      const devices = await navigator.mediaDevices.enumerateDevices();
      const cameras = options(devices, 'videoinput', 'Kamera');
      const microphones = options(devices, 'audioinput', 'Mikrofon');
      patch({ cameras, microphones, status: 'ready' });
      const camera = pickDevice(cameras, readPreferredLabel(localStorage, 'video'));
      const microphone = pickDevice(microphones, readPreferredLabel(localStorage, 'audio'));
      if (camera) void selectCamera(camera.deviceId);
      else setError('camera', deviceError({ name: 'NotFoundError' }, 'camera'));
      if (microphone) void selectMicrophone(microphone.deviceId);
      else setError('microphone', deviceError({ name: 'NotFoundError' }, 'microphone'));
    })();
    return () => {
      alive.current = false;
      generation.current.camera++;
      generation.current.microphone++;
      meter.current?.stop();
      // Into the call when the person is joining it (lib/device-handover.ts), stopped otherwise.
      deviceHandover.release([...(video.current?.getTracks() ?? []), ...(audio.current?.getTracks() ?? [])]);
      video.current = audio.current = null;
    };
  }, [patch, setError, selectCamera, selectMicrophone]);

  return { state, choose };
}
