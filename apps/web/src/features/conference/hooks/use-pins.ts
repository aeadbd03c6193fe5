import { useCallback, useState } from 'react';
import { loadPins, savePins, togglePin } from '../model/stage.ts';
import { STAGE_TEXTS } from '../model/texts.ts';

export interface Pins {
  /** Pin keys (see tilePinKey) of this user's pinned tiles. */
  pins: string[];
  /** Why the last pin did nothing (a third pin); cleared by the next pin change. */
  notice: string | null;
  toggle(key: string): void;
}

/** This user's pinned tiles, per meeting, surviving reloads and reconnects (stored in localStorage). */
export function usePins(meetingId: string): Pins {
  const [pins, setPins] = useState<string[]>(() => loadPins(typeof localStorage === 'undefined' ? null : localStorage, meetingId));
  const [notice, setNotice] = useState<string | null>(null);
  const toggle = useCallback(
    (key: string) => {
      const next = togglePin(pins, key);
      setNotice(next.refused ? STAGE_TEXTS.pinLimit : null);
      if (next.refused) return;
      setPins(next.pins);
      savePins(localStorage, meetingId, next.pins);
    },
    [pins, meetingId],
  );
  return { pins, notice, toggle };
}
