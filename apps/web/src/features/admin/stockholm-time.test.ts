import { describe, expect, it } from 'vitest';
import { formatStockholm, joinStockholm, splitStockholm } from './stockholm-time.ts';

describe('Stockholm time', () => {
  it('joins a Swedish date and time into the right instant in winter and summer', () => {
    expect(joinStockholm('2026-11-20', '09:00')).toBe('2026-11-20T08:00:00.000Z');
    expect(joinStockholm('2026-07-01', '09:00')).toBe('2026-07-01T07:00:00.000Z');
    expect(joinStockholm('2026-11-20', '')).toBeNull();
    expect(joinStockholm('', '09:00')).toBeNull();
  });
  it('splits and formats an instant in Swedish time', () => {
    expect(splitStockholm('2026-11-20T23:30:00Z')).toEqual({ date: '2026-11-21', time: '00:30' });
    expect(formatStockholm('2026-07-01T07:05:00Z')).toBe('2026-07-01 09:05');
  });
});
