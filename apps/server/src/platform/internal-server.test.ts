import { describe, expect, it } from 'vitest';
import { bearerMatches } from './internal-server.ts';

describe('bearerMatches', () => {
  const token = 'x'.repeat(40);
  it('accepts exactly "Bearer <token>", the scheme in any case', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
  });

  it('refuses no header, another scheme, a prefix or extension of the token, and extra words', () => {
    for (const header of [undefined, '', token, `Basic ${token}`, `Bearer ${token.slice(1)}`, `Bearer ${token}y`, `Bearer ${token} ${token}`, 'Bearer ']) {
      expect(bearerMatches(header, token), String(header)).toBe(false);
    }
  });
});
