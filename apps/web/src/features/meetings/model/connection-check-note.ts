import type { ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import { localDate, localTime } from '@videomote/contract/meeting-rules';

const OUTCOME = {
  direct: 'ljud och bild gick fram direkt',
  turn: 'ljud och bild gick bara fram via en omväg (TURN-server)',
  failed: 'ljud och bild kom inte fram',
} as const;

/**
 * What the meeting card says of a participant's last lobby connection check, for the caseworker who may want to
 * call them before the meeting: the outcome and when, today's checks by time only.
 */
export function connectionCheckNote(check: ParticipantConnectionCheck, now: Date): string {
  const at = new Date(check.checkedAt);
  const when = localDate(at) === localDate(now) ? localTime(at) : `${localDate(at)} ${localTime(at)}`;
  return `Anslutningstest ${when}: ${OUTCOME[check.result]}`;
}

/** Whether the check calls for the caseworker's attention (the card marks those). */
export const needsAttention = (check: ParticipantConnectionCheck) => check.result !== 'direct';
