import { describe, expect, it } from 'vitest';
import { normaliseDisplayName } from '@videomote/contract/public-access';
import { ApiError } from '../../lib/api-client.ts';
import { fieldText, lookupError } from './lookup-error.ts';

describe('lookupError (spec §8)', () => {
  it("takes the field and message of the server's first error", () => {
    expect(lookupError(new ApiError(403, 'Forbidden', 'Mötet är inte idag', [{ fields: ['startTime'], message: 'Mötet är inte idag' }]))).toEqual({
      field: 'startTime',
      message: 'Mötet är inte idag',
    });
  });
  it('falls back to roomId with the general advice', () => {
    expect(lookupError(new ApiError(0, 'NetworkError', 'x'))).toEqual({ field: 'roomId', message: 'Kontrollera länken och testa igen.' });
    expect(lookupError(new ApiError(400, 'ValidationError', 'x', [{ fields: ['something'], message: 'y' }])).field).toBe('roomId');
  });
  it('has a text per field', () => {
    expect([fieldText('roomId'), fieldText('startTime'), fieldText('endTime')]).toEqual(['Länken fungerar inte', 'Mötet är inte idag', 'Mötet har redan varit']);
  });
});

describe('normaliseDisplayName', () => {
  it('trims, collapses spaces and allows 1 to 12 characters', () => {
    expect(normaliseDisplayName('  Åsa   Ek ')).toBe('Åsa Ek');
    expect(normaliseDisplayName('123456789012')).toBe('123456789012');
    expect(normaliseDisplayName('1234567890123')).toBeNull();
    expect(normaliseDisplayName('   ')).toBeNull();
    expect(normaliseDisplayName(5)).toBeNull();
  });
});
