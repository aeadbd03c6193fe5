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

/** The fields of getStats() records the relay rule reads. */
interface StatRecord {
  id: string;
  type: string;
  selectedCandidatePairId?: string;
  localCandidateId?: string;
  candidateType?: string;
}

/** Whether a connection's selected candidate pair goes through a TURN relay on this side (from its getStats()). */
export function relaysThroughTurn(stats: Iterable<StatRecord>): boolean {
  const byId = new Map<string, StatRecord>();
  for (const r of stats) byId.set(r.id, r);
  return [...byId.values()].some((t) => {
    if (t.type !== 'transport' || !t.selectedCandidatePairId) return false;
    const local = byId.get(byId.get(t.selectedCandidatePairId)?.localCandidateId ?? '');
    return local?.candidateType === 'relay';
  });
}

/**
 * Renewed credentials reach a connection's TURN allocation only through an ICE restart: the allocation it relays
 * through now was made with the credentials of its last gathering, and coturn refuses that allocation's refreshes
 * (of its permissions, of itself) once they have expired, when the relay drops and media stops until ICE fails and
 * is restarted. So each connection that relays restarts now, while the old credentials still hold (they do for at
 * least half their lifetime after the renewal, turnExpiry on the server): the restart gathers a new allocation with
 * the new credentials, and media stays on the old path until the new one is chosen. Connections on a direct path
 * keep it (the renewed list waits for their next gathering). Answers how many restarted.
 */
export async function restartRelayed(connections: { pc: RTCPeerConnection | null; recovery: { restartNow(): void } }[]): Promise<number> {
  const relayed = await Promise.all(
    connections.map(async ({ pc }) => {
      if (!pc || pc.connectionState === 'closed') return false;
      const stats = await pc.getStats().catch(() => null);
      return stats ? relaysThroughTurn(stats.values() as Iterable<StatRecord>) : false;
    }),
  );
  connections.forEach(({ recovery }, i) => {
    if (relayed[i]) recovery.restartNow();
  });
  return relayed.filter(Boolean).length;
}
