import { describe, expect, it } from 'vitest';
import { FilterParser } from 'ldapts';
import { employeeByIdFilter, employeeSearchFilter, escapeFilterValue } from './ldap-filter.ts';

const AD = { agencyId: 'sAMAccountName', givenName: 'givenName', surname: 'sn', mail: 'mail' };
const PEOPLE = '(objectClass=user)';

describe('escapeFilterValue (RFC 4515)', () => {
  it('writes the five special characters as backslash and hex, and leaves the rest as typed', () => {
    expect(escapeFilterValue('*')).toBe('\\2a');
    expect(escapeFilterValue('(')).toBe('\\28');
    expect(escapeFilterValue(')')).toBe('\\29');
    expect(escapeFilterValue('\\')).toBe('\\5c');
    expect(escapeFilterValue('\0')).toBe('\\00');
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('Mårten Öberg-Ärlig')).toBe('Mårten Öberg-Ärlig');
    expect(escapeFilterValue('a\nb\x7f')).toBe('a\\0ab\\7f');
  });
});

describe('employeeSearchFilter', () => {
  it('asks for initial substrings of agency id, given name and surname, within the people filter', () => {
    expect(employeeSearchFilter(' marl ', AD, PEOPLE)).toBe('(&(objectClass=user)(|(sAMAccountName=marl*)(givenName=marl*)(sn=marl*)))');
  });

  it('matches each word of a several-word query against given name or surname', () => {
    expect(employeeSearchFilter('maria   lind', AD, PEOPLE)).toBe(
      '(&(objectClass=user)(|(sAMAccountName=maria lind*)(givenName=maria lind*)(sn=maria lind*)(&(|(givenName=maria*)(sn=maria*))(|(givenName=lind*)(sn=lind*)))))',
    );
  });

  it('keeps an injection attempt inside one value: parsed, the filter has the plain shape and the typed text', () => {
    const shape = (f: unknown): unknown => JSON.parse(JSON.stringify(f, (k, v) => (['initial', 'any', 'final', 'value'].includes(k) ? undefined : v)));
    const plainShape = shape(FilterParser.parseString(employeeSearchFilter('xyz', AD, PEOPLE)));
    for (const attack of ['*)(uid=*', '*))(|(cn=*', 'x\\', 'a\0b', ')(objectClass=*)(']) {
      const parsed = FilterParser.parseString(employeeSearchFilter(attack, AD, PEOPLE)) as unknown as { filters: [unknown, { filters: { attribute: string; initial: string; any: string[] }[] }] };
      // Same tree of and/or/substring filters as for a plain word: nothing the user typed became syntax ...
      expect(shape(parsed), attack).toEqual(plainShape);
      // ... and each value, unescaped by the parser, is exactly what was typed.
      for (const sub of parsed.filters[1].filters) expect({ attribute: sub.attribute, initial: sub.initial, any: sub.any }, attack).toEqual({ attribute: sub.attribute, initial: attack, any: [] });
    }
  });

  it('finds one agency id by equality', () => {
    expect(employeeByIdFilter('marlin', AD, PEOPLE)).toBe('(&(objectClass=user)(sAMAccountName=marlin))');
    expect(employeeByIdFilter('*', AD, PEOPLE)).toBe('(&(objectClass=user)(sAMAccountName=\\2a))');
  });
});
