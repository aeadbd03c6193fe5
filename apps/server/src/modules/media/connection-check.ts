import type { ConnectionCheckResult, ConnectionCheckStart, ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import type { MediaDeps } from './media.service.ts';
import type { SessionUser } from '../../platform/session.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { membershipOf, type Membership } from '../meetings/meeting-membership.ts';
import { signMediaToken } from './media-token.ts';
import { iceServersFor, TURN_CHECK_TTL_MS, turnExpiry, turnUser } from './turn-credentials.ts';
import { listConnectionChecks, upsertConnectionCheck } from './connection-check.repository.ts';

/**
 * The lobby's connection check (docs/media.md, "Media on real networks"): the browser opens a test peer connection to the
 * meeting's Janus through `/media` with the ICE servers the call would use, and reports only whether media went
 * straight, only through TURN, or not at all. The meeting's staff see each participant's last outcome beforehand.
 */

/** A check token lasts long enough for one lobby visit's check and a retry, not for a stored link. */
export const CHECK_TOKEN_MS = 10 * 60_000;

type CheckDeps = Pick<MediaDeps, 'db' | 'pins' | 'config' | 'now'>;

/**
 * Who sees the participants' checks: the meeting's staff participants (agency staff booked in it), who can call a
 * job seeker before the meeting. Other participants, visitors and staff outside the meeting do not.
 */
export function mayReadConnectionChecks(membership: Membership, user: Pick<SessionUser, 'kind'>): boolean {
  return membership.kind === 'participant' && user.kind === 'staff' && membership.participant.afId !== null;
}

async function memberOf(deps: CheckDeps, user: SessionUser, meetingId: string): Promise<Membership> {
  const membership = await membershipOf(deps.db, meetingId, user);
  // As for the meeting itself: someone outside it cannot tell an existing meeting from an unknown id.
  if (membership) return membership;
  throw notFound('Mötet hittades inte');
}

/** A token for the check's `/media` socket and the ICE servers (TURN with this participant's credentials). */
export async function startConnectionCheck(deps: CheckDeps, user: SessionUser, meetingId: string): Promise<ConnectionCheckStart> {
  const membership = await memberOf(deps, user, meetingId);
  const now = deps.now();
  const participantId = membership.kind === 'participant' ? membership.participant.id : null;
  const token = signMediaToken(deps.pins, { m: membership.meeting.id, sub: user.subject, n: '', exp: now.getTime() + CHECK_TOKEN_MS, k: 'check' });
  // TURN's user as in gettoken, so coturn's log reads the same for the check and the call; valid for the check's minutes.
  return { token, iceServers: iceServersFor(deps.config, turnUser(participantId, user.subject), turnExpiry(now.getTime(), TURN_CHECK_TTL_MS)) };
}

/** Keeps the outcome for a booked participant (a webcast's visitors pass no lobby card: nothing to keep). */
export async function reportConnectionCheck(deps: CheckDeps, user: SessionUser, meetingId: string, result: ConnectionCheckResult): Promise<void> {
  const membership = await memberOf(deps, user, meetingId);
  if (membership.kind === 'participant') await upsertConnectionCheck(deps.db, membership.meeting.id, membership.participant.id, result, deps.now());
}

export async function connectionChecksOf(deps: CheckDeps, user: SessionUser, meetingId: string): Promise<ParticipantConnectionCheck[]> {
  const membership = await memberOf(deps, user, meetingId);
  if (!mayReadConnectionChecks(membership, user)) throw forbidden();
  return listConnectionChecks(deps.db, membership.meeting.id);
}
