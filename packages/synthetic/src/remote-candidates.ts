import type { JanusMessage } from './media-socket.ts';

/**
 * Janus's trickled ICE candidates for one connection (full trickle): they can come before its description is applied,
 * so they wait until `ready` (as janus.js queues them), then go to the connection.
 */
export class RemoteCandidates {
  private readonly early: JanusMessage[] = [];
  private target: { addRemoteCandidate(candidate: string, mid: string): void } | null = null;

  /** A handle event: a trickled candidate is used or kept; any other event is ignored. */
  heard(m: JanusMessage): void {
    if (m.janus !== 'trickle') return;
    if (this.target) this.add(m);
    else this.early.push(m);
  }

  /** The description is applied: the candidates kept so far, and every later one, go to `pc`. */
  ready(pc: { addRemoteCandidate(candidate: string, mid: string): void }): void {
    this.target = pc;
    for (const m of this.early.splice(0)) this.add(m);
  }

  private add(m: JanusMessage): void {
    const c = m.candidate as { candidate?: string; sdpMid?: string; completed?: boolean } | undefined;
    if (!c || c.completed || !c.candidate) return;
    try {
      this.target!.addRemoteCandidate(c.candidate, c.sdpMid ?? '0');
    } catch {
      /* a candidate libdatachannel cannot use (another address family) */
    }
  }
}
