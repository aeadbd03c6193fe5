/**
 * Runs background work (fetching and evaluating code the person may need next) only once the page has loaded, a
 * moment has passed and the main thread is idle: work started while the first screen is still being drawn competes
 * with it on a phone's slow CPU and blocks taps (Lighthouse's Total Blocking Time). The idle wait is bounded, so the
 * work still happens on a page that is never idle.
 */
export interface IdleEnv {
  loaded(): boolean;
  onLoad(run: () => void): void;
  setTimeout(run: () => void, ms: number): void;
  /** requestIdleCallback where the browser has it (Safari had not until recently). */
  requestIdle: ((run: () => void, options: { timeout: number }) => void) | null;
}

const browserEnv = (): IdleEnv => ({
  loaded: () => document.readyState === 'complete',
  onLoad: (run) => window.addEventListener('load', run, { once: true }),
  setTimeout: (run, ms) => void window.setTimeout(run, ms),
  requestIdle: typeof window.requestIdleCallback === 'function' ? (run, options) => void window.requestIdleCallback(run, options) : null,
});

export function afterLoadWhenIdle(run: () => void, options: { delayMs: number; idleTimeoutMs: number }, env: IdleEnv = browserEnv()): void {
  const whenIdle = () => (env.requestIdle ? env.requestIdle(run, { timeout: options.idleTimeoutMs }) : run());
  const afterDelay = () => env.setTimeout(whenIdle, options.delayMs);
  if (env.loaded()) afterDelay();
  else env.onLoad(afterDelay);
}
