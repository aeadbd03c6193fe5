import { describe, expect, it } from 'vitest';
import { dateTimeFormatError, normaliseDateTimeText, parseDateText, parseTimeText } from './date-time-text.ts';

describe('date text (yyyy-MM-dd)', () => {
  it('reads the canonical form and what people type', () => {
    expect(parseDateText('2026-11-24')).toBe('2026-11-24');
    expect(parseDateText(' 20261124 ')).toBe('2026-11-24');
    expect(parseDateText('261124')).toBe('2026-11-24');
    expect(parseDateText('2026-1-5')).toBe('2026-01-05');
    expect(parseDateText('2026/11/24')).toBe('2026-11-24');
    expect(parseDateText('2026.11.24')).toBe('2026-11-24');
  });

  it('refuses what is not a real date', () => {
    for (const bad of ['', '2026-13-01', '2026-02-30', '2026-00-10', '2026-11-00', '61122-02-02', '11/24/2026', '24.11.2026', 'i morgon', '2026-11', '1899-12-31']) {
      expect(parseDateText(bad), bad).toBeNull();
    }
    expect(parseDateText('2028-02-29')).toBe('2028-02-29'); // leap year
    expect(parseDateText('2027-02-29')).toBeNull();
  });
});

describe('time text (HH:mm)', () => {
  it('reads the canonical form and what people type', () => {
    expect(parseTimeText('09:30')).toBe('09:30');
    expect(parseTimeText('930')).toBe('09:30');
    expect(parseTimeText('0930')).toBe('09:30');
    expect(parseTimeText('9.30')).toBe('09:30');
    expect(parseTimeText('9:30')).toBe('09:30');
    expect(parseTimeText('9')).toBe('09:00');
    expect(parseTimeText('14')).toBe('14:00');
    expect(parseTimeText('2359')).toBe('23:59');
    expect(parseTimeText('0:00')).toBe('00:00');
  });

  it('refuses what is not a time of day', () => {
    for (const bad of ['', '24:00', '12:60', '9:5', '12345', '9 am', 'kl 9', '25', '12:3']) expect(parseTimeText(bad), bad).toBeNull();
  });
});

describe('normalising and the Swedish format messages', () => {
  it('keeps unreadable text as typed and names the format for it, never for an empty field', () => {
    expect(normaliseDateTimeText('date', '20261124')).toBe('2026-11-24');
    expect(normaliseDateTimeText('date', '2026-13-01')).toBe('2026-13-01');
    expect(normaliseDateTimeText('time', '930')).toBe('09:30');
    expect(dateTimeFormatError('date', '2026-13-01')).toBe('Ange datum som åååå-mm-dd');
    expect(dateTimeFormatError('time', '25:00')).toBe('Ange tid som tt:mm');
    expect(dateTimeFormatError('date', '  ')).toBeNull();
    expect(dateTimeFormatError('time', '9.30')).toBeNull();
  });
});
