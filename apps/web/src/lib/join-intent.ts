/**
 * The lobby tells the app that the person is about to join (their pointer or focus reaches the consent form, which
 * they must tick before 'Anslut till mötet' lets them in); the app (app/router.tsx) has the meeting screen made
 * ready then. Running the meeting screen's code is a long task on a phone's slow CPU: run while the lobby is only
 * being looked at, it blocks taps there; run at the click, it would delay the call. Between the first touch of the
 * form and the click there is at least the tick. Features do not import each other, hence this small meeting point.
 */
export class JoinIntent {
  private readonly waiting: (() => void)[] = [];
  private shownOnce = false;

  /** `run` once the intent is shown; at once if it was shown already. */
  whenShown(run: () => void): void {
    if (this.shownOnce) run();
    else this.waiting.push(run);
  }

  /** The person is about to join: what waits runs now, once; later calls do nothing. */
  shown(): void {
    if (this.shownOnce) return;
    this.shownOnce = true;
    for (const run of this.waiting.splice(0)) run();
  }
}

export const joinIntent = new JoinIntent();
