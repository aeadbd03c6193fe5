/** The meeting screen's path, where a call started by its route's loader is taken. */
export const conferencePath = (meetingId: string) => `/meetings/${encodeURIComponent(meetingId)}/conference`;

/** The meeting whose screen `pathname` is (a trailing slash allowed), or null for any other page. */
export function meetingOfConferencePath(pathname: string): string | null {
  const id = /^\/meetings\/([^/]+)\/conference\/?$/.exec(pathname)?.[1];
  return id === undefined ? null : decodeURIComponent(id);
}

/** An early call not taken by then is closed in any case (the meeting screen mounts within a second or two). */
export const UNTAKEN_FOR_MS = 30_000;
/**
 * How long the page a navigation left (the lobby) may still show: the loader runs before an in-app navigation
 * changes the address, which waits for the meeting screen's code (a download on a weak link, when the lobby's warm-up
 * has not fetched it yet).
 */
export const NAVIGATING_FOR_MS = 10_000;

/**
 * Whether a call the meeting route's loader started, and that the meeting screen has not taken, is to be closed: the
 * browser went elsewhere than its meeting screen, stayed on the page it was leaving for too long, or it has waited
 * too long on the meeting screen itself.
 */
export function earlyCallAbandoned(now: { pathname: string; waitedMs: number }, call: { meetingId: string; startedOn: string }): boolean {
  const path = now.pathname.replace(/\/+$/, '');
  if (path === conferencePath(call.meetingId)) return now.waitedMs >= UNTAKEN_FOR_MS;
  if (path === call.startedOn.replace(/\/+$/, '')) return now.waitedMs >= NAVIGATING_FOR_MS;
  return true;
}
