/**
 * The inactivity countdown (booking spec §4): minutes left since the last API call, warning at 5, logout at 0.
 * Framework-free so it can be tested without a browser; the watcher component only ticks it every second.
 */
export const WARNING_MINUTES = 5;

export interface InactivityStatus {
  /** Whole minutes left, rounded up (shown to the user). */
  minutesLeft: number;
  msLeft: number;
  showWarning: boolean;
  expired: boolean;
}

export function inactivityStatus(msLeft: number): InactivityStatus {
  const expired = msLeft <= 0;
  return {
    msLeft,
    minutesLeft: expired ? 0 : Math.ceil(msLeft / 60_000),
    showWarning: !expired && msLeft <= WARNING_MINUTES * 60_000,
    expired,
  };
}

/**
 * Tracks the last API call from the `APILastCall` cookie. The cookie holds the server's clock; comparing it with
 * the browser's clock would be off by any skew between the two, so we note the browser's time at which we
 * first saw each new cookie value and count from there (every check runs each second, so the error is ≤ 1 s).
 */
export class ActivityClock {
  private seenValue: string | null;
  private seenAt: number;

  constructor(
    private readonly sessionMinutes: number,
    cookieValue: string | null,
    now: number,
  ) {
    this.seenValue = cookieValue;
    this.seenAt = now;
  }

  check(cookieValue: string | null, now: number): InactivityStatus {
    if (cookieValue !== this.seenValue) {
      this.seenValue = cookieValue;
      this.seenAt = now;
    }
    return inactivityStatus(this.sessionMinutes * 60_000 - (now - this.seenAt));
  }
}
