import type { Capabilities } from '@videomote/contract/media';
import type { Feature } from '@videomote/contract/identity';
import { PRESENTER_ROLES } from '@videomote/contract/participant-roles';
import type { Membership } from '../meetings/meeting-membership.ts';

/**
 * Who may do what in the media session (conference spec §3, §6): in a Meeting everyone publishes and subscribes;
 * in a Webcast presenters and the meeting's admins publish and everyone subscribes. Whoever may publish may take
 * over screen sharing (forceUnpublish); meeting admins may remove a connection (forceDisconnect). A screen share
 * needs the ScreenShare feature as well, which the admin's Grupper table grants per membership role: switched off
 * there, the relay refuses the screen publish whatever the browser does.
 *
 * SECURITY: a person who added themselves by the sign-up link publishes like anyone in their role, but never stops
 * another's screen share nor removes anyone: whoever holds a link must not be able to take over a meeting.
 */
export function capabilitiesFor(membership: Membership, features: readonly Feature[]): Capabilities {
  const participant = membership.kind === 'participant' ? membership.participant : null;
  const selfRegistered = participant?.selfRegistered ?? false;
  const isAdmin = (participant?.isAdmin ?? false) && !selfRegistered;
  const publish = membership.meeting.type === 0 ? participant !== null : participant !== null && (PRESENTER_ROLES.includes(participant.role) || isAdmin);
  return { publish, subscribe: true, forceUnpublish: publish && !selfRegistered, forceDisconnect: isAdmin, screenShare: publish && features.includes('ScreenShare') };
}

export function sameCapabilities(a: Capabilities, b: Capabilities): boolean {
  return a.publish === b.publish && a.subscribe === b.subscribe && a.forceUnpublish === b.forceUnpublish && a.forceDisconnect === b.forceDisconnect && a.screenShare === b.screenShare;
}

/**
 * Whether a connection is announced to another. In a meeting everyone sees everyone. In a webcast those who may
 * present or moderate see everyone (they remove visitors, and the admin's count of viewers is stored), while a
 * viewer sees only who may present: never the other viewers, whose names are theirs alone, and a webcast of
 * hundreds is not told of every viewer who comes and goes.
 */
export function seesConnection(meetingType: 0 | 1, viewer: Capabilities, subject: Pick<Capabilities, 'publish'>): boolean {
  if (meetingType === 0) return true;
  return viewer.publish || viewer.forceDisconnect || subject.publish;
}
