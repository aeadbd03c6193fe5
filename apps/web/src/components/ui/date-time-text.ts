/**
 * Dates and times as the spec writes them (yyyy-MM-dd, HH:mm) whatever the browser's locale. Native date and time
 * inputs follow the browser (mm/dd/yyyy in an English Chromium) and mangle typed digits, so our fields are plain
 * text read leniently: what people actually type ('20261124', '930', '9.30') becomes the canonical form.
 */

export type DateTimeKind = 'date' | 'time';

export const DATE_HINT = 'åååå-mm-dd';
export const TIME_HINT = 'tt:mm';
export const DATE_FORMAT_MESSAGE = 'Ange datum som åååå-mm-dd';
export const TIME_FORMAT_MESSAGE = 'Ange tid som tt:mm';

const pad = (n: number) => String(n).padStart(2, '0');

/** A real calendar date as yyyy-MM-dd, or null. Accepts yyyy-M-d with -, /, . or space, yyyyMMdd and yyMMdd (20yy). */
export function parseDateText(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{4})[-/. ](\d{1,2})[-/. ](\d{1,2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  let year: number;
  if (m) year = Number(m[1]);
  else {
    m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
    if (!m) return null;
    year = 2000 + Number(m[1]);
  }
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1900 || month < 1 || month > 12 || day < 1) return null;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null; // 2026-02-30 and the like
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A wall-clock time as HH:mm, or null. Accepts H:mm, H.mm, 'H mm', Hmm/HHmm ('930', '0930') and a bare hour ('9'). */
export function parseTimeText(text: string): string | null {
  const s = text.trim();
  const m = /^(\d{1,2})[:. ](\d{2})$/.exec(s) ?? /^(\d{1,2})(\d{2})$/.exec(s) ?? /^(\d{1,2})()$/.exec(s);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  if (hour > 23 || minute > 59) return null;
  return `${pad(hour)}:${pad(minute)}`;
}

export const parseDateTimeText = (kind: DateTimeKind, text: string) => (kind === 'date' ? parseDateText(text) : parseTimeText(text));

/** The canonical text when the input can be read, else the input as typed (so a validation message can name it). */
export const normaliseDateTimeText = (kind: DateTimeKind, text: string) => parseDateTimeText(kind, text) ?? text;

/** The format message for a non-empty text that is not a real date or time; null when it is empty or fine. */
export function dateTimeFormatError(kind: DateTimeKind, text: string): string | null {
  if (!text.trim() || parseDateTimeText(kind, text)) return null;
  return kind === 'date' ? DATE_FORMAT_MESSAGE : TIME_FORMAT_MESSAGE;
}
