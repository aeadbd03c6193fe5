/**
 * TURN credentials are short-lived (the server's TURN_CALL_TTL_MS) and renewed on the `/media` socket while the
 * call lasts. The renewed list must reach every peer connection, or an ICE restart after the old credentials
 * expired could no longer allocate a relay:
 * - `current` is the very array janus.js was given at `new Janus({ iceServers })` (it keeps that reference for the
 *   peer connections of handles attached later), so it is replaced in place;
 * - each open peer connection gets the list with `setConfiguration`, its other settings kept as they are.
 * Answers how many peer connections took the new list.
 */
export function applyIceServers(current: RTCIceServer[], fresh: RTCIceServer[], pcs: Iterable<RTCPeerConnection | null | undefined>): number {
  current.splice(0, current.length, ...fresh);
  let applied = 0;
  for (const pc of new Set(pcs)) {
    if (!pc || pc.connectionState === 'closed') continue;
    try {
      pc.setConfiguration({ ...pc.getConfiguration(), iceServers: fresh });
      applied += 1;
    } catch {
      // A connection closing meanwhile refuses it; it needs no relay any more.
    }
  }
  return applied;
}
