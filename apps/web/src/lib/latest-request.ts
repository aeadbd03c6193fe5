/**
 * The rule every data fetch of the web app follows: only the newest request's answer counts. Starting a request
 * aborts the one before it, and an answer that arrives after a newer request started (or after `cancel`) is
 * dropped, so a slow answer for week 47 can never be shown under the heading of week 48.
 */
export class LatestRequest {
  private seq = 0;
  private controller: AbortController | null = null;

  start(): { signal: AbortSignal; isCurrent(): boolean } {
    this.controller?.abort();
    const id = ++this.seq;
    const controller = new AbortController();
    this.controller = controller;
    return { signal: controller.signal, isCurrent: () => id === this.seq && !controller.signal.aborted };
  }

  /** The page no longer wants any answer (unmounted, or nothing to fetch). */
  cancel(): void {
    this.controller?.abort();
    this.controller = null;
    this.seq += 1;
  }
}
