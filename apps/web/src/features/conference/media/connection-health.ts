import type { CallModel } from '../model/call-model.ts';
import { iceGaveUpError } from '../model/signalling-recovery.ts';
import { CONNECTION_FAILURE_TEXTS } from '../model/texts.ts';

/**
 * What the person is told about this page's connections while they recover: 'Återansluter...' while any of them
 * (the publishers', the subscriber's, the signalling socket) is being restored, and the spec's error when ICE
 * restarts did not bring one back.
 */
export class ConnectionHealth {
  /** Which of this page's connections are restarting now. */
  private readonly broken = new Set<string>();
  /** Some media connection of this page has connected at least once: media can get through this network. */
  mediaEverConnected = false;

  constructor(
    private readonly model: CallModel,
    /** A media connection broke: the network may have changed under the signalling socket too. */
    private readonly suspectSocket: () => void,
  ) {}

  setBroken(which: string, on: boolean): void {
    if (on && which !== 'signalling' && !this.broken.has(which)) this.suspectSocket();
    if (on) this.broken.add(which);
    else this.broken.delete(which);
    this.model.mediaReconnecting(this.broken.size > 0);
  }

  /** ICE restarts did not bring a connection back; its owner rebuilds it. What the user is told: iceGaveUpError. */
  iceGaveUp(everConnected: boolean): void {
    const error = iceGaveUpError(everConnected, this.mediaEverConnected);
    if (error === 'networkDisconnected') this.model.addError('networkDisconnected');
    else if (error === 'connectionFailed') this.model.connectionFailed(CONNECTION_FAILURE_TEXTS.media);
  }

  /** The session went: none of its connections is restoring any more. */
  clear(): void {
    this.broken.clear();
    this.model.mediaReconnecting(false);
  }
}
