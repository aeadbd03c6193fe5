import type { ConnectionCheckResult } from '@videomote/contract/connection-check';
import { sv } from '../../../i18n/catalogues/sv.ts';

/**
 * The lobby's connection check, framework-free: how long it may take, how the browser's own statistics of the
 * test connection become 'direct' / 'turn' / 'failed', and what the person is told about each.
 */

/**
 * A check that has not connected in this long counts as failed. ICE through TURN over TCP on a loaded two-core
 * machine connected within 5 s; the call itself gives a connection 15 s before its one restart.
 */
export const CHECK_TIMEOUT_MS = 20_000;

/** One entry of RTCPeerConnection.getStats(), as far as the check reads it. */
export interface StatsEntry {
  id: string;
  type: string;
  selectedCandidatePairId?: string;
  localCandidateId?: string;
  candidateType?: string;
  nominated?: boolean;
  state?: string;
  selected?: boolean;
}

/**
 * The type of the local candidate that carries the connection (host, srflx, prflx, relay), or null when none does.
 * Chromium names the pair on its transport; Firefox marks the pair itself `selected`.
 */
export function selectedLocalCandidateType(stats: StatsEntry[]): string | null {
  const byId = new Map(stats.map((s) => [s.id, s]));
  const transport = stats.find((s) => s.type === 'transport' && s.selectedCandidatePairId);
  const pair =
    (transport && byId.get(transport.selectedCandidatePairId!)) ??
    stats.find((s) => s.type === 'candidate-pair' && s.selected) ??
    stats.find((s) => s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded');
  const local = pair?.localCandidateId ? byId.get(pair.localCandidateId) : undefined;
  return local?.candidateType ?? null;
}

/** Connected through a relay candidate: only TURN gets through. Any other candidate: media flows directly. */
export function checkOutcome(connected: boolean, localCandidateType: string | null): ConnectionCheckResult {
  if (!connected) return 'failed';
  return localCandidateType === 'relay' ? 'turn' : 'direct';
}


const C = sv.connectionCheck;

/** The Swedish texts of the check's outcomes (the catalogues hold them in every language), as the tests read them. */
export const CHECK_TEXTS = {
  heading: C.heading,
  results: {
    direct: { summary: C.directSummary, advice: '' },
    turn: { summary: C.turnSummary, advice: C.turnAdvice },
    failed: { summary: C.failedSummary, advice: C.failedAdvice },
  },
} as const;
