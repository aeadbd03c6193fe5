import { useEffect, useId, useState } from 'react';
import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { SETTINGS_TEXTS } from '../model/texts.ts';

interface Props {
  open: boolean;
  onClose(): void;
  /** The devices in use now, by deviceId. */
  current(): { audio: string | null; video: string | null };
  /** Switches live; rejects when the device cannot be opened. */
  onSwitch(kind: 'audio' | 'video', deviceId: string): Promise<void>;
}

/**
 * 'Inställningar för ljud och bild' (spec §2 Settings dialog): the camera and microphone switch during the call,
 * and the choice is remembered by label (`video_device`, `audio_device`) for the next time.
 */
export function SettingsDialog({ open, onClose, current, onSwitch }: Props) {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [selected, setSelected] = useState<{ audio: string | null; video: string | null }>({ audio: null, video: null });
  const [error, setError] = useState<'audio' | 'video' | null>(null);
  const [busy, setBusy] = useState(false);
  const videoId = useId();
  const audioId = useId();

  useEffect(() => {
    if (!open) return;
    setError(null);
    setSelected(current());
    let cancelled = false;
    void navigator.mediaDevices
      .enumerateDevices()
      .then((list) => !cancelled && setDevices(list))
      .catch(() => !cancelled && setDevices([]));
    return () => {
      cancelled = true;
    };
  }, [open, current]);

  const change = async (kind: 'audio' | 'video', deviceId: string) => {
    const device = devices.find((d) => d.deviceId === deviceId);
    setBusy(true);
    setError(null);
    try {
      await onSwitch(kind, deviceId);
      setSelected((s) => ({ ...s, [kind]: deviceId }));
      if (device?.label) localStorage.setItem(kind === 'video' ? VIDEO_DEVICE_KEY : AUDIO_DEVICE_KEY, JSON.stringify(device.label));
    } catch {
      setError(kind);
    } finally {
      setBusy(false);
    }
  };

  const options = (kind: MediaDeviceKind) =>
    devices
      .filter((d) => d.kind === kind)
      .map((d, i) => (
        <option key={d.deviceId || i} value={d.deviceId}>
          {d.label || `${kind === 'videoinput' ? SETTINGS_TEXTS.video : SETTINGS_TEXTS.audio} ${i + 1}`}
        </option>
      ));

  return (
    <Dialog
      open={open}
      title={SETTINGS_TEXTS.settingsTitle}
      onClose={onClose}
      className="settings-dialog"
      actions={
        <button type="button" className={buttonClass('primary')} onClick={onClose} data-autofocus>
          {SETTINGS_TEXTS.close}
        </button>
      }
    >
      <div className="settings-dialog__field">
        <label htmlFor={videoId}>{SETTINGS_TEXTS.videoSource}</label>
        <select id={videoId} value={selected.video ?? ''} disabled={busy} onChange={(e) => void change('video', e.target.value)}>
          {options('videoinput')}
        </select>
      </div>
      <div className="settings-dialog__field">
        <label htmlFor={audioId}>{SETTINGS_TEXTS.audioSource}</label>
        <select id={audioId} value={selected.audio ?? ''} disabled={busy} onChange={(e) => void change('audio', e.target.value)}>
          {options('audioinput')}
        </select>
      </div>
      {error && (
        <p role="alert" className="settings-dialog__error">
          {error === 'video' ? SETTINGS_TEXTS.cameraError : SETTINGS_TEXTS.micError} {SETTINGS_TEXTS.deviceAdvice}
        </p>
      )}
    </Dialog>
  );
}
