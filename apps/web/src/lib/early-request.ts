/**
 * A request made before the code that needs its answer is ready (a route's loader, say), handed to that code once.
 * The answer is handed only for the same key and while fresh; otherwise the request is made again.
 */
export class EarlyRequest<T> {
  private early: { key: string; at: number; answer: Promise<T>; arrived?: { value: T } } | null = null;

  constructor(
    private readonly freshForMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(key: string, ask: () => Promise<T>): void {
    // Started again for the same key while a fresh answer waits (the page's first script, then the route's loader):
    // one request, not two.
    if (this.fresh(key)) return;
    const answer = ask();
    const early: NonNullable<typeof this.early> = { key, at: this.now(), answer };
    // Perhaps never taken (the page went elsewhere): its failure is then nobody's error.
    answer.then((value) => (early.arrived = { value }), () => {});
    this.early = early;
  }

  /** Starts anew even when an answer for `key` waits (one asked with less than this request carries). */
  restart(key: string, ask: () => Promise<T>): void {
    this.early = null;
    this.start(key, ask);
  }

  /** Whether a fresh answer for `key` waits to be taken. */
  fresh(key: string): boolean {
    return this.early !== null && this.early.key === key && this.now() - this.early.at < this.freshForMs;
  }

  /**
   * Forgets the waiting answer for `key` (it no longer holds: say, asked with a consent since withdrawn); with
   * `answer`, only if that is the one waiting.
   */
  drop(key: string, answer?: Promise<T>): void {
    if (this.early?.key === key && (!answer || this.early.answer === answer)) this.early = null;
  }

  /**
   * The fresh answer for `key` if it has already arrived (once), else undefined and it keeps waiting: for code that
   * must not yield to other work before it acts on the answer (awaiting even a settled promise does).
   */
  takeArrived(key: string): T | undefined {
    const arrived = this.fresh(key) ? this.early!.arrived : undefined;
    if (arrived) this.early = null;
    return arrived?.value;
  }

  take(key: string, ask: () => Promise<T>): Promise<T> {
    const waiting = this.fresh(key) ? this.early!.answer : null;
    this.early = null;
    return waiting ?? ask();
  }
}
