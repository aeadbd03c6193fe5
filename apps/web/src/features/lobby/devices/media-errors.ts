import { sv } from '../../../i18n/catalogues/sv.ts';

/** The lobby's device error texts, exactly as booking spec §8 has them (the Swedish catalogue holds them). */
export const DEVICE_TEXTS = sv.devices.errors;

export const TROUBLESHOOTING_URL = '/usersupport/troubleshooting#user-media';

export type DeviceKind = 'camera' | 'microphone';

export interface DeviceError {
  /** 'denied' covers both devices: the browser refused the site, not one device. */
  kind: DeviceKind | 'denied';
  message: string;
  hint: string | null;
}

const DENIED = new Set(['NotAllowedError', 'PermissionDeniedError', 'SecurityError']);
const IN_USE = new Set(['NotReadableError', 'TrackStartError', 'AbortError']);

/** Turns a getUserMedia failure (a DOMException by name) into the text the lobby shows. */
export function deviceError(error: unknown, kind: DeviceKind): DeviceError {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : '';
  if (DENIED.has(name)) return { kind: 'denied', message: DEVICE_TEXTS.denied, hint: null };
  if (kind === 'camera' && IN_USE.has(name)) return { kind, message: DEVICE_TEXTS.cameraInUse, hint: DEVICE_TEXTS.checkDevices };
  return { kind, message: kind === 'camera' ? DEVICE_TEXTS.camera : DEVICE_TEXTS.microphone, hint: DEVICE_TEXTS.checkDevices };
}
