import { useEffect, useId, useRef } from 'react';
import { useTexts } from '../../../i18n/use-texts.ts';
import { knownText } from '../../../i18n/known-text.ts';
import { TROUBLESHOOTING_URL, type DeviceError, type DeviceKind } from '../devices/media-errors.ts';
import { useDeviceTest, type DeviceOption } from './use-device-test.ts';

function DeviceErrorMessage({ error }: { error: DeviceError }) {
  const { t } = useTexts();
  return (
    <div className="lobby-device-error" role="alert">
      <p>{knownText(t, error.message)}</p>
      {error.hint && <p>{knownText(t, error.hint)}</p>}
      <p>
        <a href={TROUBLESHOOTING_URL} target="_blank" rel="noopener noreferrer">
          {t('devices.readMore')}
        </a>
      </p>
    </div>
  );
}

const SELECT_TEXTS = {
  camera: { label: 'devices.camera', none: 'devices.noCamera' },
  microphone: { label: 'devices.microphone', none: 'devices.noMicrophone' },
} as const satisfies Record<DeviceKind, unknown>;

/** The labelled dropdown of one kind of device, led by the 'none chosen' option. */
function DeviceSelect(props: { kind: DeviceKind; devices: DeviceOption[]; value: string; disabled: boolean; onChoose(kind: DeviceKind, deviceId: string): unknown }) {
  const id = useId();
  const { t } = useTexts();
  const texts = SELECT_TEXTS[props.kind];
  return (
    <>
      <label htmlFor={id}>{t(texts.label)}</label>
      <select id={id} value={props.value} onChange={(e) => void props.onChoose(props.kind, e.target.value)} disabled={props.disabled}>
        <option value="">{t(texts.none)}</option>
        {props.devices.map((d) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** Camera preview, microphone level and the two device dropdowns of the lobby (booking spec §2, §4). */
export function DeviceTest() {
  const { state, choose } = useDeviceTest();
  const { t } = useTexts();
  const videoRef = useRef<HTMLVideoElement>(null);
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
          <video ref={videoRef} className="lobby-devices__video" autoPlay muted playsInline aria-label={t('devices.preview')} />
        ) : (
          <div className="lobby-devices__no-video">
            <span>{state.status === 'checking' ? t('devices.checking') : t('devices.noVideo')}</span>
          </div>
        )}
      </div>
      <div className="lobby-devices__controls">
        <DeviceSelect kind="camera" devices={state.cameras} value={state.cameraId} disabled={state.status !== 'ready'} onChoose={choose} />
        <DeviceSelect kind="microphone" devices={state.microphones} value={state.microphoneId} disabled={state.status !== 'ready'} onChoose={choose} />

        <span id={levelLabel}>{t('devices.micLevel')}</span>
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
          {!state.microphoneId ? '' : state.microphoneWorks ? t('devices.micWorks') : t('devices.saySomething')}
        </p>
      </div>
    </div>
  );
}
