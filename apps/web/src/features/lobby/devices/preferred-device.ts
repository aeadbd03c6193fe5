import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
export type StoredKind = 'video' | 'audio';

const keyOf = (kind: StoredKind) => (kind === 'video' ? VIDEO_DEVICE_KEY : AUDIO_DEVICE_KEY);

/**
 * The conference picks its devices by these labels (conference spec §3, §5), so the lobby stores labels, not
 * device ids (which change between origins and sessions), as JSON strings.
 */
export function readPreferredLabel(store: Store, kind: StoredKind): string | null {
  const raw = store.getItem(keyOf(kind));
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && value ? value : null;
  } catch {
    return null;
  }
}

/** Null means "none chosen": the key is removed so the conference falls back to its default. */
export function writePreferredLabel(store: Store, kind: StoredKind, label: string | null): void {
  if (label) store.setItem(keyOf(kind), JSON.stringify(label));
  else store.removeItem(keyOf(kind));
}

/** The remembered device if it is still there (labels compared case-insensitively), else the first one. */
export function pickDevice<T extends { label: string }>(devices: readonly T[], preferredLabel: string | null): T | null {
  if (preferredLabel) {
    const wanted = preferredLabel.toLocaleLowerCase('sv');
    const match = devices.find((d) => d.label.toLocaleLowerCase('sv') === wanted);
    if (match) return match;
  }
  return devices[0] ?? null;
}
