import type { JanusJS } from 'janus-gateway';
import { addressGained, mediaFlowedSince, NETWORK_WATCH_FOR_MS, NETWORK_WATCH_MS, SignalWatch, type IceRecovery } from '../model/ice-recovery.ts';
import { heldThroughResume, reopenResumeSocket, RESUME_PATH_CHECK_MS, RESUME_TIMEOUT_MS } from '../model/signalling-recovery.ts';
import { localAddresses } from './local-addresses.ts';
import { retireSocket, type SessionEpoch } from './media-socket.ts';
import type { RemoteFeeds } from './remote-feeds.ts';

/** A media connection with its ICE recovery: an own publisher's or the subscriber connection. */
export interface IceConnection {
  recovery: IceRecovery;
  pc: RTCPeerConnection | null;
  /** ICE restarts asked for so far, and whether one is still pending. */
  restarts(): { asked: number; pending: boolean };
}

/** What the session shows the resume of its socket. */
export interface ResumeHost {
  /** The live connection: its Janus session, epoch and socket URL (null when there is none). */
  live(): { janus: JanusJS.Janus; epoch: SessionEpoch; url: string } | null;
  /** The session's socket now. */
  socket(): WebSocket | null;
  /** Reads the socket janus.js opens next for `url`, which then becomes `socket()`. */
  tap(url: string, epoch: SessionEpoch): void;
  /** The signalling connection is (or is no longer) broken: the status says 'Återansluter...' meanwhile. */
  setBroken(on: boolean): void;
  /** The resume failed: the session starts afresh (or ends). */
  lost(): void;
  /** Whether a broken socket can be replaced while everything else stays (see canResume in the model). */
  canResume(): boolean;
  closed(): boolean;
  ping(): void;
  /** The own publishers' connections, and the subscriber's. */
  iceConnections(): IceConnection[];
  /** Every peer connection of the session, for the bytes received on them. */
  peerConnections(): { pc: RTCPeerConnection }[];
  remote(): RemoteFeeds | null;
  /** The camera publisher's connection. */
  publisherPc(): RTCPeerConnection | undefined;
}

/** A media connection when the signalling socket was given up (see heldThroughResume). */
interface ConnectionMark {
  recovery: IceRecovery;
  restarts: { asked: number; pending: boolean };
  /** Bytes received on it from the media server so far. */
  bytes: Promise<number | null>;
}

/**
 * The `/media` socket's watch and its resume: pings say when the socket is dead (an address change leaves it
 * hanging, ice-recovery.ts), and a new socket then takes over the same connection on the server while the peer
 * connections stay (signalling-recovery.ts).
 */
export class SocketResume {
  /** A resume is under way. */
  active = false;
  /** How many times the signalling socket was replaced with the connection kept (the browser tests read it). */
  count = 0;
  /** The socket a resume under way replaces (left open for the server to drop). */
  private replaced: WebSocket | null = null;
  private signal: SignalWatch | null = null;

  constructor(private readonly host: ResumeHost) {}

  /** Pings the socket from the first time the call is up. */
  watch(): void {
    if (this.signal) return;
    const host = this.host;
    this.signal = new SignalWatch({
      ping: () => {
        if (!this.active) host.ping();
      },
      mediaBytes: async () => {
        const [received, sent] = await Promise.all([this.receivedBytes(), statBytes(host.publisherPc(), 'outbound-rtp')]);
        return { received, sent };
      },
      dead: () => {
        if (!host.closed() && !this.active && host.socket() && host.canResume()) this.resume();
        else this.signal?.reset();
      },
    });
    // Where the browser tells of a network change (Wi-Fi to mobile on a laptop or phone), look at once.
    window.addEventListener('online', this.onNetworkChange);
    connectionInfo()?.addEventListener('change', this.onNetworkChange);
  }

  /** A new socket is open: its pings start afresh. */
  socketOpened(): void {
    this.signal?.reset();
  }

  /** Something came on the socket: it lives. */
  heard(): void {
    this.signal?.heard();
  }

  /** A media connection broke: the network may have changed under the socket too. */
  suspect(): void {
    this.signal?.suspect();
  }

  stop(): void {
    this.signal?.stop();
    window.removeEventListener('online', this.onNetworkChange);
    connectionInfo()?.removeEventListener('change', this.onNetworkChange);
  }

  /** The resume reached a server that holds nothing of ours: it is over, the session starts afresh. */
  abandon(): void {
    this.active = false;
    this.host.setBroken(false);
  }

  /** The socket a failed resume meant to replace, for the teardown to close (once). */
  takeReplaced(): WebSocket | null {
    const replaced = this.replaced;
    this.replaced = null;
    return replaced;
  }

  private readonly onNetworkChange = () => this.signal?.suspect();

  /**
   * A new socket for the same connection: the server hands it the connection it held (same id, Janus session,
   * handles and feeds) and janus.js claims its session on it. The peer connections are not touched; an ICE restart
   * that went out on the dead socket is sent again. If the server no longer holds the connection, a fresh start.
   */
  resume(): void {
    const host = this.host;
    const live = host.live();
    if (!live || this.active) return;
    const { janus, epoch, url } = live;
    this.active = true;
    host.setBroken(true);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      if (!this.active || !epoch.live) return;
      this.active = false;
      host.setBroken(false);
      if (!ok) return host.lost();
      this.replaced = null; // the server dropped it when the new socket took over
      this.signal?.reset();
      // The receiving connection's requests go on once the restarts are decided: let go first, it would send a
      // restart still waiting from the outage, and restartNow then ask Janus for a second behind it.
      const remote = host.remote();
      // The addresses the restarts gather on: read now, not at the give-up, since Chromium may have learned the
      // new one meanwhile and then lists both (see addressGained).
      const addresses = localAddresses().catch(() => []);
      void this.restartWherePathBroke(epoch, atGiveUp).finally(() => remote?.resumed());
      void this.watchAddresses(epoch, addresses, bytesAtGiveUp);
    };
    // The socket broke without a close (an address change, most likely): note the media received so far, and each
    // connection as it is.
    const bytesAtGiveUp = this.receivedBytes().catch(() => null);
    const atGiveUp = this.markConnections();
    const timer = setTimeout(() => done(false), RESUME_TIMEOUT_MS);
    this.count += 1;
    this.replaced = host.socket();
    if (this.replaced) retireSocket(this.replaced);
    // The old socket is left to the server, which drops it when the new one takes over: a close frame from here
    // could reach it first and end the connection that is being resumed.
    let attempt = 0;
    void this.reopenWhenPathReturns(epoch, () => {
      const mine = ++attempt;
      host.tap(url, epoch);
      janus.reconnect({ success: () => mine === attempt && done(true), error: () => mine === attempt && done(false) });
      return host.socket();
    });
  }

  /** Each media connection as it was when the socket was given up, for heldThroughResume at the resume. */
  private markConnections(): ConnectionMark[] {
    return this.host.iceConnections().map(({ recovery, pc, restarts }) => ({ recovery, restarts: restarts(), bytes: statBytes(pc, 'transport').catch(() => null) }));
  }

  /**
   * The resume came through: every connection restarts ICE (an ICE restart asked for on the dead socket is asked for
   * again, and the path may have moved with the socket's) except those whose path carried them through the outage
   * (heldThroughResume). One made since the give-up, with nothing to compare, restarts too.
   */
  private async restartWherePathBroke(epoch: SessionEpoch, atGiveUp: ConnectionMark[]): Promise<void> {
    const now = this.host.iceConnections();
    const held = await Promise.all(
      now.map(async ({ recovery, pc, restarts }) => {
        const mark = atGiveUp.find((m) => m.recovery === recovery);
        if (!mark || !pc) return false;
        const [bytesAtGiveUp, bytesNow] = await Promise.all([mark.bytes, statBytes(pc, 'transport').catch(() => null)]);
        return heldThroughResume({ ice: pc.iceConnectionState, signaling: pc.signalingState, restartAskedMeanwhile: restartAskedMeanwhile(mark.restarts, restarts()), bytesAtGiveUp, bytesNow });
      }),
    );
    if (this.host.closed() || !epoch.live) return;
    now.forEach(({ recovery }, i) => held[i] || recovery.restartNow());
  }

  /**
   * Opens a resume's socket (`open`), and while it is still opening reads every quarter second whether packets
   * arrive from the media server on any connection: when they arrive again after a quiet reading the link is back,
   * and the socket made while it was down would wait on TCP's retries, so it is closed and another opened
   * (reopenResumeSocket). Once a resume: on a starved machine a reading can find nothing while media flows, and a
   * second replacement (bench) closed a socket that was about to open. One closed while opening answers nothing;
   * janus.js's handlers on it report only an error that the attempt count no longer heeds.
   */
  private async reopenWhenPathReturns(epoch: SessionEpoch, open: () => WebSocket | null): Promise<void> {
    const socket = open();
    const madeAt = Date.now();
    let quietSeen = false;
    let before = await transportBytesReceived(this.host.peerConnections());
    const stillOpening = () => this.active && epoch.live && socket !== null && socket === this.host.socket() && socket.readyState === WebSocket.CONNECTING;
    while (stillOpening()) {
      await new Promise((r) => setTimeout(r, RESUME_PATH_CHECK_MS));
      const now = await transportBytesReceived(this.host.peerConnections());
      const arriving = mediaFlowedSince(before, now);
      before = now;
      if (!stillOpening()) return;
      if (!arriving) quietSeen = true;
      else if (reopenResumeSocket(Date.now() - madeAt, quietSeen, arriving)) {
        socket?.close();
        open();
        return;
      }
    }
  }

  /**
   * After a resume: Chromium learns a new address seconds after the change, so a restart made at once may have
   * gathered on the old one. When its address list gains one it did not have at the resume, every connection of
   * this session restarts ICE once more (the same RTCPeerConnections), now on the new address. Not watched when
   * media arrived since the socket was given up: the path has not moved (the server, or a machine starved of CPU,
   * was only slow to answer), and the watch makes a throwaway peer connection every NETWORK_WATCH_MS for seconds.
   */
  private async watchAddresses(epoch: SessionEpoch, atRestart: Promise<string[]>, bytesAtGiveUp: Promise<number | null>): Promise<void> {
    if (mediaFlowedSince(await bytesAtGiveUp, await this.receivedBytes().catch(() => null))) return;
    const atResume = await atRestart;
    const end = Date.now() + NETWORK_WATCH_FOR_MS;
    while (Date.now() < end && !this.host.closed() && epoch.live && !this.active) {
      await new Promise((r) => setTimeout(r, NETWORK_WATCH_MS));
      if (!addressGained(atResume, await localAddresses().catch(() => []))) continue;
      if (this.host.closed() || !epoch.live) return;
      const remote = this.host.remote();
      for (const c of this.host.iceConnections()) if (c.recovery !== remote?.iceRecovery) c.recovery.restartNow();
      remote?.networkChanged();
      return;
    }
  }

  /** Media bytes received so far on the subscriber connection (null: it receives nothing), for the socket watch. */
  private receivedBytes(): Promise<number | null> {
    return statBytes(this.host.remote()?.pc, 'inbound-rtp');
  }
}

/** Whether an ICE restart was asked for between the give-up's count and now, or one is still waiting. */
export function restartAskedMeanwhile(atGiveUp: { asked: number; pending: boolean }, now: { asked: number; pending: boolean }): boolean {
  return atGiveUp.pending || now.pending || now.asked !== atGiveUp.asked;
}

/** The Network Information API where the browser has it (Chromium): its `change` follows a change of network. */
const connectionInfo = (): EventTarget | undefined => (navigator as { connection?: EventTarget }).connection;

/**
 * Everything received so far from the media server on these connections (media, RTCP and ICE checks alike: any of
 * it proves the path; null where the browser keeps no transport figures).
 */
export async function transportBytesReceived(connections: { pc: RTCPeerConnection }[]): Promise<number | null> {
  const pcs = new Set(connections.map((c) => c.pc));
  const totals = await Promise.all([...pcs].map((pc) => statBytes(pc, 'transport')));
  return totals.reduce<number | null>((sum, t) => (t === null ? sum : (sum ?? 0) + t), null);
}

/**
 * A connection's bytes so far over every stats entry of this type: sent for outbound RTP, else received (null: no
 * such entry, or no connection).
 */
export async function statBytes(pc: RTCPeerConnection | null | undefined, type: 'inbound-rtp' | 'outbound-rtp' | 'transport'): Promise<number | null> {
  if (!pc || pc.connectionState === 'closed') return null;
  let total: number | null = null;
  (await pc.getStats()).forEach((r: { type: string; bytesReceived?: number; bytesSent?: number }) => {
    if (r.type === type) total = (total ?? 0) + ((type === 'outbound-rtp' ? r.bytesSent : r.bytesReceived) ?? 0);
  });
  return total;
}
