import { describe, expect, it } from 'vitest';
import { checkPersonnummer } from './personnummer.ts';

const today = new Date('2026-11-21T12:00:00Z');

describe('checkPersonnummer', () => {
  it('accepts the test personas in every written form and normalises to 12 digits', () => {
    for (const form of ['19900101-2385', '199001012385', '900101-2385', '9001012385']) {
      expect(checkPersonnummer(form, today)).toEqual({ ok: true, pin: '199001012385' });
    }
    expect(checkPersonnummer('19850709-9805', today)).toEqual({ ok: true, pin: '198507099805' });
    expect(checkPersonnummer('19700101-1233', today)).toEqual({ ok: true, pin: '197001011233' });
  });
  it('rejects a wrong check digit', () => {
    expect(checkPersonnummer('19900101-2384', today)).toEqual({ ok: false, reason: 'checksum' });
  });
  it('rejects impossible and future dates', () => {
    expect(checkPersonnummer('19900230-2385', today)).toMatchObject({ ok: false, reason: 'date' });
    expect(checkPersonnummer('20300101-2385', today)).toMatchObject({ ok: false, reason: 'date' });
  });
  it('recognises coordination numbers and rejects them on their own reason', () => {
    // 1990-01-01 as a coordination number: day 61; check digit computed for 9001612385 → Luhn-valid variant.
    const candidates = Array.from({ length: 10 }, (_, d) => `19900161238${d}`);
    const valid = candidates.filter((c) => checkPersonnummer(c, today).ok || (checkPersonnummer(c, today) as { reason?: string }).reason === 'coordination');
    expect(valid).toHaveLength(1);
    expect(checkPersonnummer(valid[0]!, today)).toEqual({ ok: false, reason: 'coordination' });
  });
  it('rejects garbage', () => {
    for (const bad of ['', 'abc', '1990-01-01', '19900101_2385', '<script>']) expect(checkPersonnummer(bad, today).ok).toBe(false);
  });
});
