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
 */
export function capabilitiesFor(membership: Membership, features: readonly Feature[]): Capabilities {
  const participant = membership.kind === 'participant' ? membership.participant : null;
  const isAdmin = participant?.isAdmin ?? false;
  const publish = membership.meeting.type === 0 ? participant !== null : participant !== null && (PRESENTER_ROLES.includes(participant.role) || isAdmin);
  return { publish, subscribe: true, forceUnpublish: publish, forceDisconnect: isAdmin, screenShare: publish && features.includes('ScreenShare') };
}
