/**
 * Swedish personal identity numbers (personnummer), shared by the form and the server.
 * Accepts YYYYMMDD-NNNN, YYYYMMDDNNNN, YYMMDD-NNNN and YYMMDDNNNN (a '+' for people over 100); normalises to
 * the 12-digit form. Coordination numbers (day + 60) are recognised and rejected separately, as the spec asks.
 */
export type PinCheck =
  | { ok: true; pin: string }
  | { ok: false; reason: 'format' | 'date' | 'checksum' | 'coordination' };

export const PIN_INVALID_MESSAGE = 'Fältet är ej korrekt ifyllt';
export const PIN_COORDINATION_MESSAGE = 'Samordningsnummer stöds inte';

export function luhnOk(tenDigits: string): boolean {
  let sum = 0;
  for (let i = 0; i < tenDigits.length; i++) {
    let d = Number(tenDigits[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

export function checkPersonnummer(input: string, today: Date = new Date()): PinCheck {
  const m = /^(\d{2})?(\d{6})([-+]?)(\d{4})$/.exec(input.trim());
  if (!m) return { ok: false, reason: 'format' };
  const [, century, yymmdd, separator, last4] = m as unknown as [string, string | undefined, string, string, string];
  let fullYear: number;
  const yy = Number(yymmdd.slice(0, 2));
  if (century) {
    fullYear = Number(century + yymmdd.slice(0, 2));
  } else {
    const thisYear = today.getFullYear();
    fullYear = Math.floor(thisYear / 100) * 100 + yy;
    if (fullYear > thisYear) fullYear -= 100;
    if (separator === '+') fullYear -= 100;
  }
  const month = Number(yymmdd.slice(2, 4));
  const rawDay = Number(yymmdd.slice(4, 6));
  const coordination = rawDay > 60;
  const day = coordination ? rawDay - 60 : rawDay;
  const date = new Date(Date.UTC(fullYear, month - 1, day));
  const validDate =
    month >= 1 && month <= 12 && day >= 1 && date.getUTCFullYear() === fullYear && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!validDate) return { ok: false, reason: 'date' };
  if (date.getTime() > today.getTime()) return { ok: false, reason: 'date' };
  if (!luhnOk(yymmdd + last4)) return { ok: false, reason: 'checksum' };
  if (coordination) return { ok: false, reason: 'coordination' };
  return { ok: true, pin: `${fullYear}${yymmdd.slice(2)}${last4}` };
}

export const pinErrorMessage = (check: Exclude<PinCheck, { ok: true }>) =>
  check.reason === 'coordination' ? PIN_COORDINATION_MESSAGE : PIN_INVALID_MESSAGE;
