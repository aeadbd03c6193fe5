/** Dates and times as the spec shows them (yyyy-MM-dd, HH:mm) in Europe/Stockholm, whatever the browser's zone. */

const parts = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function fields(instant: Date): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of parts.formatToParts(instant)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `{ date: 'yyyy-MM-dd', time: 'HH:mm' }` of an instant in Swedish time. */
export function splitStockholm(iso: string): { date: string; time: string } {
  const f = fields(new Date(iso));
  return { date: `${f.year}-${pad(f.month!)}-${pad(f.day!)}`, time: `${pad(f.hour!)}:${pad(f.minute!)}` };
}

export const formatStockholm = (iso: string) => {
  const { date, time } = splitStockholm(iso);
  return `${date} ${time}`;
};

/** The instant (ISO, UTC) of a Swedish wall-clock date and time; null when either is missing or invalid. */
export function joinStockholm(date: string, time: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +t[1]!, +t[2]!);
  if (Number.isNaN(wall)) return null;
  // Swedish time is UTC+1 or UTC+2: take the offset at the guessed instant, then check it again there.
  let instant = wall;
  for (let i = 0; i < 2; i++) {
    const f = fields(new Date(instant));
    const shown = Date.UTC(f.year!, f.month! - 1, f.day!, f.hour!, f.minute!);
    instant += wall - shown;
  }
  return new Date(instant).toISOString();
}

/** Today's date in Sweden, yyyy-MM-dd. */
export const todayStockholm = (now = new Date()) => splitStockholm(now.toISOString()).date;
