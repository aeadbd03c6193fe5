/**
 * Search filters for the staff directory, built from what a caseworker typed. Every typed character goes through
 * `escapeFilterValue`, so `*)(uid=*` is looked for as those characters and never widens or rewrites the filter.
 */

export interface DirectoryAttributes {
  agencyId: string;
  givenName: string;
  surname: string;
  mail: string;
}

/**
 * RFC 4515 §3: a value in a string filter has `*`, `(`, `)`, `\` and NUL written as `\` and two hex digits. Other
 * control characters are escaped too so that a filter in a log line reads as one line; all else is UTF-8 as typed.
 */
export function escapeFilterValue(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '*' || ch === '(' || ch === ')' || ch === '\\' || code < 0x20 || code === 0x7f) out += `\\${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out;
}

// At most this many words of a name are looked for; more only makes the filter longer, not the answer better.
const MAX_WORDS = 4;

/**
 * People whose agency id starts with the query, or whose given name or surname starts with it, or, for a query of
 * several words ("maria lind"), each word of which starts their given name or surname. Only initial substrings
 * (`value*`): Active Directory answers those from its indexes, while `*value*` reads every entry of the domain.
 */
export function employeeSearchFilter(query: string, attrs: DirectoryAttributes, userFilter: string): string {
  const q = query.trim().replace(/\s+/g, ' ');
  const v = escapeFilterValue(q);
  const words = q.split(' ').slice(0, MAX_WORDS).map(escapeFilterValue);
  const nameStarts = (w: string) => `(${attrs.givenName}=${w}*)(${attrs.surname}=${w}*)`;
  const clauses = [`(${attrs.agencyId}=${v}*)`, nameStarts(v)];
  if (words.length > 1) clauses.push(`(&${words.map((w) => `(|${nameStarts(w)})`).join('')})`);
  return `(&${userFilter}(|${clauses.join('')}))`;
}

/** Exactly one agency id (equality matching is case-insensitive for sAMAccountName and uid). */
export function employeeByIdFilter(agencyId: string, attrs: DirectoryAttributes, userFilter: string): string {
  return `(&${userFilter}(${attrs.agencyId}=${escapeFilterValue(agencyId.trim())}))`;
}
