import type { EarlyRequest } from './early-request.ts';

/**
 * The lobby's consent box and the call's media token. Ticking the box is the consent (booking spec §4: entering
 * needs it ticked): it is recorded, and the token asked for, at once, so that 'Anslut till mötet' finds the token
 * there instead of waiting a round trip through the server (on a mobile link, 100-300 ms of the join). Unticking
 * withdraws it. The requests go one after another in the order the box was changed, so what the server keeps is
 * the box's last state, however fast it was clicked.
 */
export class ConsentRequests<T> {
  /** The last request made; it never rejects (each request's own caller sees its failure). */
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly tokens: EarlyRequest<T>,
    private readonly giveWithToken: (meetingId: string) => Promise<T>,
    private readonly withdraw: (meetingId: string) => Promise<unknown>,
  ) {}

  ticked(meetingId: string): void {
    const answer = this.last.then(() => this.giveWithToken(meetingId));
    this.last = answer.catch(() => {
      // Refused or lost: 'Anslut till mötet' asks again rather than take the failure.
      this.tokens.drop(meetingId, answer);
    });
    // The meeting screen takes this answer (takeToken), even while it is still on its way.
    this.tokens.restart(meetingId, () => answer);
  }

  unticked(meetingId: string): void {
    // A token asked for with the consent is not used without it.
    this.tokens.drop(meetingId);
    this.last = this.last.then(() => this.withdraw(meetingId)).catch(() => {});
  }

  /** 'Anslut till mötet' with the box ticked: the token asked for then, unless it is no longer fresh. */
  joining(meetingId: string): void {
    if (!this.tokens.fresh(meetingId)) this.ticked(meetingId);
  }
}
