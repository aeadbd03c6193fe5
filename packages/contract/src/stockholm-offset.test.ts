import { describe, expect, it } from 'vitest';
import { offsetByRule, RULE_YEARS } from './stockholm-offset.ts';

const HOUR_MS = 3_600_000;
const intl = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Stockholm', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
const intlOffset = (t: number) => {
  const g = Object.fromEntries(intl.formatToParts(new Date(t)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(g.year!, g.month! - 1, g.day!, g.hour!, g.minute!, g.second!) - Math.floor(t / 1000) * 1000;
};

describe('Stockholm offset by the summer-time rule', () => {
  it("agrees with the time-zone data, hour by hour, over the ten days around each change from 1996 to 2037", () => {
    for (let year = RULE_YEARS.first; year <= RULE_YEARS.last; year++) {
      for (const month of [2, 9]) {
        const start = Date.UTC(year, month, 22);
        for (let t = start; t < start + 10 * 24 * HOUR_MS; t += HOUR_MS) {
          expect(offsetByRule(t), new Date(t).toISOString()).toBe(intlOffset(t));
          expect(offsetByRule(t + HOUR_MS - 1), new Date(t + HOUR_MS - 1).toISOString()).toBe(intlOffset(t + HOUR_MS - 1));
        }
      }
      for (const mid of [Date.UTC(year, 0, 15), Date.UTC(year, 6, 15)]) expect(offsetByRule(mid)).toBe(intlOffset(mid));
    }
  });

  it('changes at 01:00 UTC on the last Sundays of March and October, and leaves other years to Intl', () => {
    expect(offsetByRule(Date.parse('2026-03-29T00:59:59.999Z'))).toBe(HOUR_MS);
    expect(offsetByRule(Date.parse('2026-03-29T01:00:00Z'))).toBe(2 * HOUR_MS);
    expect(offsetByRule(Date.parse('2026-10-25T00:59:59.999Z'))).toBe(2 * HOUR_MS);
    expect(offsetByRule(Date.parse('2026-10-25T01:00:00Z'))).toBe(HOUR_MS);
    expect(offsetByRule(Date.parse('1995-06-01T00:00:00Z'))).toBeNull();
    expect(offsetByRule(Date.parse('2038-06-01T00:00:00Z'))).toBeNull();
    expect(offsetByRule(NaN)).toBeNull();
  });
});
