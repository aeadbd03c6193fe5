/**
 * Whether a browser may publish on its screen-share handle (conference spec §4: one screen sharer at a time; the
 * ScreenShare feature of Grupper). The browser asks before taking over and hides the button it may not use, but
 * only this check holds against a modified one. A takeover first stops the other share through
 * `forceunpublish`, so by the time the new offer arrives the room has no other sharer.
 */
export interface ScreenPublish {
  /** The connection's capabilities allow a screen share (publisher with the ScreenShare feature). */
  allowed: boolean;
  /** The message carries the offer that starts media (a join alone sends nothing). */
  offer: boolean;
  /** Another connection of the same meeting shares a screen right now. */
  otherSharing: boolean;
}

export function screenPublishRefusal(p: ScreenPublish): string | null {
  if (!p.allowed) return 'no screen-share capability';
  if (p.offer && p.otherSharing) return 'another participant shares a screen: take over first';
  return null;
}
