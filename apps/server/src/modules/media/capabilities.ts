import type { Capabilities } from '@videomote/contract/media';
import type { Feature } from '@videomote/contract/identity';
import { PRESENTER_ROLES } from '@videomote/contract/participant-roles';
import type { Membership } from '../meetings/meeting-membership.ts';

/**
 * Who may do what in the media session (conference spec §3, §6): in a Meeting everyone publishes and subscribes;
 * in a Webcast presenters and the meeting's admins publish and everyone subscribes. A screen share needs the
 * ScreenShare feature as well, which the admin's Grupper table grants every group by default and may withdraw per
 * group: switched off there, the relay refuses the screen publish whatever the browser does. Whoever may share may
 * also take a share over after the confirmation (spec §6: "Any participant may take over screen sharing"):
 * forceUnpublish, which stops another's screen share and nothing else, goes with screenShare. Meeting admins may
 * remove a connection (forceDisconnect).
 *
 * SECURITY: a person who added themselves by the sign-up link publishes and shares like anyone in their role, but
 * never removes anyone: whoever holds a link must not be able to take over a meeting. Taking a share over is not
 * that: the sharer may take it back the same way, and it mutes, removes and ends nothing else.
 */
export function capabilitiesFor(membership: Membership, features: readonly Feature[]): Capabilities {
  const participant = membership.kind === 'participant' ? membership.participant : null;
  const selfRegistered = participant?.selfRegistered ?? false;
  const isAdmin = (participant?.isAdmin ?? false) && !selfRegistered;
  const publish = membership.meeting.type === 0 ? participant !== null : participant !== null && (PRESENTER_ROLES.includes(participant.role) || isAdmin);
  const screenShare = publish && features.includes('ScreenShare');
  return { publish, subscribe: true, forceUnpublish: screenShare, forceDisconnect: isAdmin, screenShare };
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
