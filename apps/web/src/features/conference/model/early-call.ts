/** The meeting screen's path, where a call started by its route's loader is taken. */
export const conferencePath = (meetingId: string) => `/meetings/${encodeURIComponent(meetingId)}/conference`;

/** An early call not taken by then is closed in any case (the meeting screen mounts within a second or two). */
export const UNTAKEN_FOR_MS = 30_000;

/**
 * Whether a call the meeting route's loader started, and that the meeting screen has not taken, is to be closed:
 * the browser is no longer on that meeting's screen (the navigation went elsewhere), or it has waited too long. The
 * loader runs before an in-app navigation changes the address, so the first look comes a second later.
 */
export function earlyCallAbandoned(pathname: string, meetingId: string, waitedMs: number): boolean {
  return pathname.replace(/\/+$/, '') !== conferencePath(meetingId) || waitedMs >= UNTAKEN_FOR_MS;
}
