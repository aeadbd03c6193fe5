import type { UserData } from '@videomote/contract/identity';
import { sv } from '../../i18n/catalogues/sv.ts';

/**
 * Service-desk contacts, in one place (booking spec §6, support contact by role). The numbers are this
 * installation's; an operator changes them here.
 */
const T = sv.support;
export const SUPPORT = {
  footerHours: T.footerHours,
  helpHours: T.helpHours,
  internalServiceDesk: { label: T.internalServiceDesk, phone: '010-486 20 00' },
  externalServiceDesk: { label: T.externalServiceDesk, phone: '0771-60 70 80' },
  jobSeekerLine: { label: T.jobSeekerLine, phone: '0771-41 64 16' },
  email: 'videomote.support@arbetsformedlingen.se',
  faultReport: { label: T.faultReport, href: '/usersupport/troubleshooting#felanmalan' },
} as const;

export interface SupportContact {
  label: string;
  phone?: string;
  email?: string;
  href?: string;
}

/**
 * Who sees what: employees the internal service desk plus the number job seekers call; everyone else the
 * external number. Employees and KA users get the fault-report link; the others e-mail and phone support.
 */
export function supportContactsFor(user: UserData | null): SupportContact[] {
  const employee = !!user && (user.identityKind === 'staff' || user.userLevel === 'Intern');
  const ka = !!user && user.userLevel === 'KA';
  const contacts: SupportContact[] = employee
    ? [SUPPORT.internalServiceDesk, SUPPORT.jobSeekerLine]
    : [SUPPORT.externalServiceDesk];
  if (employee || ka) contacts.push({ label: SUPPORT.faultReport.label, href: SUPPORT.faultReport.href });
  else contacts.push({ label: T.email, email: SUPPORT.email });
  return contacts;
}
