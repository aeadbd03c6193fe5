import type { Employee } from '@videomote/contract/meetings';

/**
 * Where agency staff are looked up (booking spec §4 employee search). The embedded directory below is the default;
 * an LDAP or HR-API directory implements the same two calls and is chosen in `createEmployeeDirectory`.
 */
export interface EmployeeDirectory {
  /** Staff whose agency id (signatur) or name contains the query, best matches first. */
  search(query: string, limit?: number): Promise<Employee[]>;
  /** One employee by agency id, or null. */
  find(signatur: string): Promise<Employee | null>;
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

const fold = (s: string) => s.toLocaleLowerCase('sv-SE').normalize('NFC');

export class EmbeddedEmployeeDirectory implements EmployeeDirectory {
  constructor(private readonly employees: readonly Employee[] = SEEDED_EMPLOYEES) {}

  async search(query: string, limit = 20): Promise<Employee[]> {
    const q = fold(query.trim());
    if (!q) return [];
    // An exact agency id first, then ids and names that start with the query, then any that contain it.
    const rank = (e: Employee) => {
      const id = fold(e.signatur);
      const name = fold(e.namn);
      if (id === q) return 0;
      if (id.startsWith(q)) return 1;
      if (name.startsWith(q) || name.split(' ').some((w) => w.startsWith(q))) return 2;
      if (id.includes(q) || name.includes(q)) return 3;
      return -1;
    };
    return this.employees
      .map((e) => ({ e, r: rank(e) }))
      .filter((x) => x.r >= 0)
      .sort((a, b) => a.r - b.r || a.e.namn.localeCompare(b.e.namn, 'sv'))
      .slice(0, limit)
      .map((x) => x.e);
  }

  async find(signatur: string): Promise<Employee | null> {
    const id = fold(signatur.trim());
    return this.employees.find((e) => fold(e.signatur) === id) ?? null;
  }
}

let shared: EmployeeDirectory | null = null;

/** The directory the server uses. A real one (LDAP, HR API) is plugged in here. */
export function createEmployeeDirectory(): EmployeeDirectory {
  shared ??= new EmbeddedEmployeeDirectory();
  return shared;
}
