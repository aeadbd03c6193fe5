import { describe, expect, it } from 'vitest';
import { rankEmployees } from './employee-ranking.ts';

const e = (signatur: string, namn: string) => ({ signatur, namn, elektroniskAdress: `${signatur}@myndighet.se` });
const PEOPLE = [e('marlun', 'Mårten Lundgren'), e('annmar', 'Anna Marklund'), e('marlin', 'Maria Lindqvist'), e('mar', 'Mar Kort'), e('olsson', 'Olle Lindmar')];

describe('rankEmployees', () => {
  it('orders exact id, id prefix, name word prefix, then anything containing the query', () => {
    expect(rankEmployees(PEOPLE, 'MAR', 10).map((x) => x.signatur)).toEqual(['mar', 'marlin', 'marlun', 'annmar', 'olsson']);
  });

  it('matches every word of a several-word query to words of the name, and honours the limit', () => {
    expect(rankEmployees(PEOPLE, 'maria lind', 10).map((x) => x.signatur)).toEqual(['marlin']);
    expect(rankEmployees(PEOPLE, 'lind  ma', 10).map((x) => x.signatur)).toEqual(['marlin']);
    expect(rankEmployees(PEOPLE, 'mar', 2)).toHaveLength(2);
    expect(rankEmployees(PEOPLE, '   ', 10)).toEqual([]);
  });
});
