import { describe, expect, it } from 'vitest';
import { errorTextFor } from './error-texts.ts';

describe('errorTextFor', () => {
  it('maps the statuses of booking spec §8, and everything else to the internal error', () => {
    expect(errorTextFor(401).kind).toBe('unauthorized');
    expect(errorTextFor(403).kind).toBe('forbidden');
    expect(errorTextFor(404).kind).toBe('notFound');
    expect(errorTextFor(410).kind).toBe('gone');
    expect(errorTextFor(504).kind).toBe('gatewayTimeout');
    for (const s of [500, 502, 503, 418, 0, NaN]) expect(errorTextFor(s).kind).toBe('internal');
  });
  it('speaks Swedish', () => {
    expect(errorTextFor(404).heading).toBe('Sidan hittades inte');
    expect(errorTextFor(500).heading).toBe('Något gick fel');
  });
});
