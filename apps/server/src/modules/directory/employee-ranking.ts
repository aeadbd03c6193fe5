import type { Employee } from '@videomote/contract/meetings';

const fold = (s: string) => s.toLocaleLowerCase('sv-SE').normalize('NFC');

/**
 * Staff matching a query, best first: an exact agency id, then ids that start with it, then names with a word that
 * starts with it, then anything containing it. Every directory orders its answers this way, so the web's auto-select
 * (fewer than four hits: the first) picks the same person whichever directory is behind it.
 */
export function rankEmployees(employees: readonly Employee[], query: string, limit: number): Employee[] {
  const q = fold(query.trim());
  if (!q) return [];
  const words = q.split(/\s+/);
  const rank = (e: Employee) => {
    const id = fold(e.signatur);
    const name = fold(e.namn);
    if (id === q) return 0;
    if (id.startsWith(q)) return 1;
    if (name.startsWith(q) || name.split(' ').some((w) => w.startsWith(q))) return 2;
    if (id.includes(q) || name.includes(q)) return 3;
    // "Maria Lind": every word of the query starts a word of the name (the LDAP search asks for these).
    const nameWords = name.split(/\s+/);
    if (words.length > 1 && words.every((w) => nameWords.some((n) => n.startsWith(w)))) return 4;
    return -1;
  };
  return employees
    .map((e) => ({ e, r: rank(e) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.e.namn.localeCompare(b.e.namn, 'sv'))
    .slice(0, limit)
    .map((x) => x.e);
}

/** Agency ids compare without case, as the directory itself compares them. */
export const sameAgencyId = (a: string, b: string) => fold(a.trim()) === fold(b.trim());
