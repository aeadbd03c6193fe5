import type { UserData } from '@videomote/contract/identity';

/** Agency staff (user level Intern): they see the internal service desk and no secondary 'Logga ut'. */
export const isEmployee = (user: UserData) => user.identityKind === 'staff' || user.userLevel === 'Intern';

/** The external-user role (e-ID login with membership role Participant): the one that sees 'Logga ut' in the header. */
export const isExternalUser = (user: UserData) => user.identityKind === 'eid' && user.afRole.includes('Participant');

/** An anonymous webcast visitor's session. */
export const isWebcastVisitor = (user: UserData) => user.identityKind === 'anonymous';
