import { sv } from '../../../i18n/catalogues/sv.ts';
import { userMediaFailure } from '../../../lib/user-media-error.ts';

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

/** Turns a getUserMedia failure (a DOMException by name, read as the call reads it) into the text the lobby shows. */
export function deviceError(error: unknown, kind: DeviceKind): DeviceError {
  const failure = userMediaFailure(error);
  if (failure === 'denied') return { kind: 'denied', message: DEVICE_TEXTS.denied, hint: null };
  if (kind === 'camera' && failure === 'in-use') return { kind, message: DEVICE_TEXTS.cameraInUse, hint: DEVICE_TEXTS.checkDevices };
  return { kind, message: kind === 'camera' ? DEVICE_TEXTS.camera : DEVICE_TEXTS.microphone, hint: DEVICE_TEXTS.checkDevices };
}
