import { describe, expect, it } from 'vitest';
import { firstScreenLanguage } from './first-language.ts';

describe('firstScreenLanguage (what early-start fetches texts for)', () => {
  it("is the browser's language on an external screen, the person's choice before it", () => {
    expect(firstScreenLanguage('/personaldata', null, ['en-US', 'en'])).toBe('en');
    expect(firstScreenLanguage('/publicaccess/abc', null, ['ar-SE'])).toBe('ar');
    expect(firstScreenLanguage('/meetings/1/lobby', 'so', ['en-US'])).toBe('so');
  });
  it('is Swedish on a staff screen and for a browser language we do not have', () => {
    expect(firstScreenLanguage('/meetings', 'en', ['en-US'])).toBe('sv');
    expect(firstScreenLanguage('/usersupport', null, ['de-DE'])).toBe('sv');
  });
});
