/** Conference spec §4, §9: follow new messages only while within 16 px of the bottom. */
export const AUTO_SCROLL_THRESHOLD_PX = 16;
export const SCROLL_THROTTLE_MS = 100;

export function isNearBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= AUTO_SCROLL_THRESHOLD_PX;
}

/** Runs `fn` at most once per `ms`, and once more at the end of a burst so the last position counts. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number, now: () => number = () => Date.now()) {
  let last = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  let lastArgs: A;
  const run = () => {
    last = now();
    trailing = null;
    fn(...lastArgs);
  };
  const throttled = (...args: A) => {
    lastArgs = args;
    const wait = last + ms - now();
    if (wait <= 0) run();
    else trailing ??= setTimeout(run, wait);
  };
  throttled.cancel = () => {
    if (trailing) clearTimeout(trailing);
    trailing = null;
  };
  return throttled;
}

const timeFormat = new Intl.DateTimeFormat('sv-SE', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Stockholm' });

/** Chat time format HH:mm (spec §9), Swedish time. */
export const formatChatTime = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : timeFormat.format(d);
};
