import { useEffect, useId, useRef } from 'react';
import { TROUBLESHOOTING_URL, type DeviceError } from '../devices/media-errors.ts';
import { useDeviceTest } from './use-device-test.ts';

export const NO_CAMERA = '- Ingen kamera vald -';
export const NO_MICROPHONE = '- Ingen mikrofon vald -';

function DeviceErrorMessage({ error }: { error: DeviceError }) {
  return (
    <div className="lobby-device-error" role="alert">
      <p>{error.message}</p>
      {error.hint && <p>{error.hint}</p>}
      <p>
        <a href={TROUBLESHOOTING_URL} target="_blank" rel="noopener noreferrer">
          Läs mer om problem med kamera och mikrofon (öppnas i en ny flik)
        </a>
      </p>
    </div>
  );
}

/** Camera preview, microphone level and the two device dropdowns of the lobby (booking spec §2, §4). */
export function DeviceTest() {
  const { state, choose } = useDeviceTest();
  const videoRef = useRef<HTMLVideoElement>(null);
  const cameraSelect = useId();
  const micSelect = useId();
  const levelLabel = useId();

  useEffect(() => {
    if (videoRef.current) videoRef.current.srcObject = state.videoStream;
  }, [state.videoStream]);

  const errors = [state.errors.denied, state.errors.camera, state.errors.microphone].filter((e): e is DeviceError => !!e);
  const level = Math.round(state.level);

  return (
    <div className="lobby-devices" aria-busy={state.status === 'checking'}>
      {errors.map((e) => (
        <DeviceErrorMessage key={e.kind} error={e} />
      ))}
      <div className="lobby-devices__preview">
        {state.videoStream ? (
          <video ref={videoRef} className="lobby-devices__video" autoPlay muted playsInline aria-label="Förhandsvisning av din kamera" />
        ) : (
          <div className="lobby-devices__no-video">
            <span>{state.status === 'checking' ? 'Kontrollerar kamera och mikrofon...' : 'Ingen bild från kameran'}</span>
          </div>
        )}
      </div>
      <div className="lobby-devices__controls">
        <label htmlFor={cameraSelect}>Kamera</label>
        <select id={cameraSelect} value={state.cameraId} onChange={(e) => void choose('camera', e.target.value)} disabled={state.status !== 'ready'}>
          <option value="">{NO_CAMERA}</option>
          {state.cameras.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>

        <label htmlFor={micSelect}>Mikrofon</label>
        <select id={micSelect} value={state.microphoneId} onChange={(e) => void choose('microphone', e.target.value)} disabled={state.status !== 'ready'}>
          <option value="">{NO_MICROPHONE}</option>
          {state.microphones.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>

        <span id={levelLabel}>Mikrofonnivå</span>
        <div
          className="lobby-level"
          role="meter"
          aria-labelledby={levelLabel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={level}
          data-level={level}
        >
          <div className="lobby-level__bar" style={{ width: `${level}%` }} />
        </div>
        <p className="lobby-devices__mic-status" aria-live="polite">
          {!state.microphoneId ? '' : state.microphoneWorks ? 'Mikrofonen fungerar.' : 'Säg något för att testa mikrofonen.'}
        </p>
      </div>
    </div>
  );
}
