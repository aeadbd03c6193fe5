import type { Employee } from '@videomote/contract/meetings';
import type { LdapConfig } from '../../platform/config.ts';
import { rankEmployees, sameAgencyId } from './employee-ranking.ts';
import { LdapEmployeeDirectory, type DirectoryLog } from './ldap-employee-directory.ts';

/**
 * Where agency staff are looked up (booking spec §4 employee search). The embedded directory below is the default;
 * with LDAP_URL set, the agency's Active Directory answers the same two calls (`createEmployeeDirectory`).
 */
export interface EmployeeDirectory {
  /** Staff whose agency id (signatur) or name matches the query, best matches first. */
  search(query: string, limit?: number): Promise<Employee[]>;
  /** One employee by agency id, or null. */
  find(signatur: string): Promise<Employee | null>;
  close?(): Promise<void>;
}

/** The seeded colleagues: both staff personas of the test IdP plus a handful more. */
export const SEEDED_EMPLOYEES: readonly Employee[] = [
  { signatur: 'annadm', namn: 'Anna Admin', elektroniskAdress: 'anna.admin@arbetsformedlingen.se' },
  { signatur: 'erihan', namn: 'Erik Handläggare', elektroniskAdress: 'erik.handlaggare@arbetsformedlingen.se' },
  { signatur: 'marlin', namn: 'Maria Lindqvist', elektroniskAdress: 'maria.lindqvist@arbetsformedlingen.se' },
  { signatur: 'johber', namn: 'Johan Berg', elektroniskAdress: 'johan.berg@arbetsformedlingen.se' },
  { signatur: 'sarnil', namn: 'Sara Nilsson', elektroniskAdress: 'sara.nilsson@arbetsformedlingen.se' },
  { signatur: 'ahmhas', namn: 'Ahmed Hassan', elektroniskAdress: 'ahmed.hassan@arbetsformedlingen.se' },
  { signatur: 'elijoh', namn: 'Elin Johansson', elektroniskAdress: 'elin.johansson@arbetsformedlingen.se' },
  { signatur: 'petand', namn: 'Peter Andersson', elektroniskAdress: 'peter.andersson@arbetsformedlingen.se' },
  { signatur: 'lenkar', namn: 'Lena Karlsson', elektroniskAdress: 'lena.karlsson@arbetsformedlingen.se' },
  { signatur: 'anderi', namn: 'Anders Eriksson', elektroniskAdress: 'anders.eriksson@arbetsformedlingen.se' },
];

export class EmbeddedEmployeeDirectory implements EmployeeDirectory {
  constructor(private readonly employees: readonly Employee[] = SEEDED_EMPLOYEES) {}

  async search(query: string, limit = 20): Promise<Employee[]> {
    return rankEmployees(this.employees, query, limit);
  }

  async find(signatur: string): Promise<Employee | null> {
    return this.employees.find((e) => sameAgencyId(e.signatur, signatur)) ?? null;
  }
}

/** The directory one server uses: the agency's LDAP directory when configured, else the embedded list. */
export function createEmployeeDirectory(ldap: LdapConfig | null, log: DirectoryLog): EmployeeDirectory {
  return ldap ? new LdapEmployeeDirectory(ldap, log) : new EmbeddedEmployeeDirectory();
}
