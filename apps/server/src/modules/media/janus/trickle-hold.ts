/** Trickled candidates held for one handle at most; more than a browser gathers (a few per network and server). */
export const MAX_HELD_TRICKLES = 64;

/**
 * Holds a handle's trickled candidates from its offer until Janus has taken the offer.
 *
 * Janus 1.1.2 (janus.c, janus_transport_requests) hands a `message` request, such as a publisher's offer with an ICE
 * restart, to a thread pool, but handles a `trickle` at once on its request thread. So a candidate the browser sends
 * just after its offer can reach the ICE agent first, under the credentials of before, and the restart then drops it
 * (nice_agent_restart forgets the remote candidates). Seen in Janus's verbose log in the address-move browser test:
 * "Adding remote candidate ... 198.18.1.102" and "Restarting ICE..." in the same millisecond. Once Janus has taken
 * the offer (its ack, or any answer to that transaction) it queues a handle's candidates itself until its answer is
 * out, so from then on they can go.
 */
export class TrickleHold {
  /** Handle → the transaction of its offer Janus has not taken yet, and the candidates held meanwhile. */
  private readonly waiting = new Map<number, { transaction: string; held: string[] }>();

  offerSent(handleId: number, transaction: string): void {
    const held = this.waiting.get(handleId)?.held ?? [];
    this.waiting.set(handleId, { transaction, held });
  }

  /** Keeps `message` (a trickle for `handleId`) if that handle's offer is still on its way; answers whether it did. */
  hold(handleId: number, message: string): boolean {
    const w = this.waiting.get(handleId);
    if (!w || w.held.length >= MAX_HELD_TRICKLES) return false;
    w.held.push(message);
    return true;
  }

  /** Janus answered `transaction` (ack, event, error): the candidates held behind it, to send now, in order. */
  answered(transaction: string): string[] {
    for (const [handleId, w] of this.waiting) {
      if (w.transaction !== transaction) continue;
      this.waiting.delete(handleId);
      return w.held;
    }
    return [];
  }
}
