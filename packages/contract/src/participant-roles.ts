/** Participant roles (booking spec §3) with the Swedish category labels shown in the interface. */
export const ParticipantRoles = [
  'None',
  'JobSeeker',
  'EmploymentOfficer',
  'Authority',
  'Interpreter',
  'SignLanguageInterpreter',
  'TextInterpreter',
  'ExternalParticipant',
  'PrivateContractor',
  'PresenterExternal',
  'PresenterInternal',
] as const;
export type ParticipantRole = (typeof ParticipantRoles)[number];

export const ROLE_LABELS: Record<ParticipantRole, string> = {
  None: 'Okänd',
  JobSeeker: 'Arbetssökande',
  EmploymentOfficer: 'Anställd på Arbetsförmedlingen',
  Authority: 'Myndighet',
  Interpreter: 'Tolk',
  SignLanguageInterpreter: 'Teckentolk',
  TextInterpreter: 'Skrivtolk',
  ExternalParticipant: 'Extern deltagare',
  PrivateContractor: 'Leverantör till Arbetsförmedlingen',
  PresenterExternal: 'Extern presentatör',
  PresenterInternal: 'Intern presentatör',
};

/** Staff are found by agency id, everybody else by personnummer (booking spec §5). */
export const STAFF_ROLES: readonly ParticipantRole[] = ['EmploymentOfficer', 'PresenterInternal'];
export const PRESENTER_ROLES: readonly ParticipantRole[] = ['PresenterExternal', 'PresenterInternal'];
/** Admin may be granted only to these (booking spec §5). */
export const ADMIN_GRANTABLE_ROLES: readonly ParticipantRole[] = ['PrivateContractor', 'EmploymentOfficer', 'PresenterInternal'];

/**
 * Interpreters whose work the others depend on to follow the call (beyond the spec): their tiles stay on stage,
 * and the text interpreter (Skrivtolk) alone may send captions.
 */
export const STAGE_KEPT_ROLES: readonly ParticipantRole[] = ['SignLanguageInterpreter', 'TextInterpreter'];
export const CAPTIONER_ROLE: ParticipantRole = 'TextInterpreter';

export const MeetingType = { Meeting: 0, Webcast: 1 } as const;
export type MeetingType = (typeof MeetingType)[keyof typeof MeetingType];
