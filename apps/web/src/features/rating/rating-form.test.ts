import { describe, expect, it } from 'vitest';
import { decideRating } from './rating-form.ts';

describe('decideRating', () => {
  it('closes without sending when neither rating nor comment is given', () => {
    expect(decideRating(null, '   ')).toEqual({ kind: 'close' });
  });
  it('asks for a rating when only a comment is given', () => {
    expect(decideRating(null, 'Hackigt ljud')).toEqual({ kind: 'error', message: 'Du måste ange ett betyg för att få skicka in.' });
  });
  it('sends and closes above 2, sends and shows help at 2 and below', () => {
    expect(decideRating(3, '')).toEqual({ kind: 'send', callQuality: 3, comment: null, thenHelp: false });
    expect(decideRating(5, ' Bra ')).toEqual({ kind: 'send', callQuality: 5, comment: 'Bra', thenHelp: false });
    expect(decideRating(2, '')).toMatchObject({ kind: 'send', thenHelp: true });
    expect(decideRating(1, 'x')).toMatchObject({ kind: 'send', thenHelp: true });
  });
  it('refuses a comment over 4000 characters', () => {
    expect(decideRating(4, 'x'.repeat(4001))).toMatchObject({ kind: 'error' });
    expect(decideRating(4, 'x'.repeat(4000))).toMatchObject({ kind: 'send' });
  });
});
