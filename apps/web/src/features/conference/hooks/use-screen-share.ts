import { useState, type RefObject } from 'react';
import type { CallModel, CallState } from '../model/call-model.ts';
import { shareAction } from '../model/screen-share.ts';
import type { MediaSession } from '../media/media-session.ts';
import { forceUnpublish } from '../api/force-unpublish.ts';

export interface ScreenShareControls {
  /** Whose share the takeover dialog asks about (null: no dialog). */
  takeoverOf: { connectionId: string; displayName: string } | null;
  /** 'Dela skärm' / 'Avsluta skärmdelning' pressed. */
  toggle(): void;
  confirmTakeover(): void;
  cancelTakeover(): void;
}

/** Screen sharing (spec §4): stop the own, ask before taking over another's, or start at once. */
export function useScreenShare(meetingId: string, model: CallModel, state: CallState, session: RefObject<MediaSession | null>): ScreenShareControls {
  const [takeoverOf, setTakeoverOf] = useState<{ connectionId: string; displayName: string } | null>(null);
  const toggle = () => {
    const action = shareAction(state);
    if (action.kind === 'stop') session.current?.stopScreenShare();
    else if (action.kind === 'ask') setTakeoverOf({ connectionId: action.connectionId, displayName: action.displayName });
    else void session.current?.startScreenShare();
  };
  const confirmTakeover = () => {
    const ask = takeoverOf;
    setTakeoverOf(null);
    if (!ask) return;
    void session.current?.startScreenShare(async () => {
      // The share may have ended meanwhile (409/404): then there is nothing to take over, and sharing goes on.
      await forceUnpublish(meetingId, ask.connectionId).catch((err: { status?: number }) => {
        if (err.status !== 409 && err.status !== 404) throw err;
      });
    });
  };
  return { takeoverOf, toggle, confirmTakeover, cancelTakeover: () => setTakeoverOf(null) };
}
