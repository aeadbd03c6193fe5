/**
 * A BENCH BASELINE, NOT A WAY INTO THE PRODUCT: a synthetic participant that talks straight to Janus's own WebSocket
 * with Janus's signed token (as bench/bare-janus-client.ts's janus.js page does), with no login, no lobby, no
 * `/media` relay, no meeting key, its frames sent in clear (Janus is told nothing of end-to-end encryption). It is the
 * "bare Janus" side of bench/media-call.ts, so that the product's path and bare Janus are measured against the same
 * generator. The product's server has no such path: Janus listens on loopback only, reached here from inside the
 * bench's private network namespace.
 */
import WebSocket from 'ws';
import { MediaSocket } from './media-socket.ts';
import { FrameSealer } from './sealer.ts';
import type { Clips } from './clips.ts';
import type { Pacer } from './pacer.ts';
import { Publisher, type JanusSide, type PublishOptions } from './participant.ts';

export class BareJanusParticipant implements JanusSide {
  readonly sealer = new FrameSealer();
  readonly e2ee = false;
  private readonly publishers: Publisher[] = [];

  private constructor(readonly socket: MediaSocket) {
    this.sealer.endToEnd = false;
  }

  /** Opens a Janus session in `roomId` (a VideoRoom room made without `require_e2ee`) at Janus's WebSocket `janusUrl`. */
  static async join(opts: { janusUrl: string; token: string; roomId: number }): Promise<BareJanusParticipant> {
    const ws = new WebSocket(opts.janusUrl, 'janus-protocol');
    const socket = new MediaSocket(ws, { token: opts.token });
    socket.roomId = opts.roomId;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await socket.createSession();
    return new BareJanusParticipant(socket);
  }

  /** Publishes as SyntheticParticipant.publish does, frames in clear. */
  async publish(clips: Clips, pacer: Pacer, options: PublishOptions = {}): Promise<Publisher> {
    const publisher = new Publisher(this, clips, pacer, options);
    this.publishers.push(publisher);
    await publisher.start();
    return publisher;
  }

  close(): void {
    for (const p of this.publishers) p.close();
    this.socket.close();
  }
}
