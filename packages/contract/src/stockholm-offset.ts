/**
 * Stockholm's offset from UTC by the EU's summer-time rule (Directive 2000/84/EC; Sweden's clocks have followed the
 * same rule since 1996): CEST, UTC+2, from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of
 * October; CET, UTC+1, the rest of the year. Null outside the years it is checked for, where Intl is asked instead.
 *
 * Why not Intl alone: a page's first Intl.DateTimeFormat costs 20-60 ms of main thread in Chromium on this machine
 * (ICU's date data made ready), one long task on every page that shows a meeting's time (the meeting list's Total
 * Blocking Time, four times that on a mid-range phone). stockholm-offset.test.ts compares the rule with Intl hour by
 * hour around every change of the years below: if the zone's rules change (the EU has discussed ending summer
 * time), Node's updated time-zone data fails that test and this rule has to follow.
 */
export const RULE_YEARS = { first: 1996, last: 2037 } as const;

const HOUR_MS = 3_600_000;

/** 01:00 UTC on the last Sunday of `month` (0-based) of `year`. */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Stockholm's offset in ms at the instant `t` (ms since the epoch) by the rule, or null outside RULE_YEARS. */
export function offsetByRule(t: number): number | null {
  const year = new Date(t).getUTCFullYear();
  if (!(year >= RULE_YEARS.first && year <= RULE_YEARS.last)) return null;
  return t >= lastSundayOneUtc(year, 2) && t < lastSundayOneUtc(year, 9) ? 2 * HOUR_MS : HOUR_MS;
}
