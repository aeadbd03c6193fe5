import type { Capabilities, MediaConnection, MediaServerMessage } from '@videomote/contract/media';
import { sha256 } from '../../platform/crypto.ts';
import type { Holder, HoldScope } from '../../platform/media-holds.ts';
import type { SessionUser } from '../../platform/session.ts';
import { seesConnection } from './capabilities.ts';
import { meetingEndToEnd } from './media-protection.ts';
import type { JanusRelay } from './janus/janus-relay.ts';
import type { HoldUsage, PeerConnectionUsage } from './janus/relay-policy.ts';

/** A `/media` socket of this process, wired to Janus through its relay. */
export interface LiveConnection {
  connection: MediaConnection;
  relay: JanusRelay;
  capabilities: Capabilities;
  /** Publisher handle of the camera, and of a second publisher (the screen share). */
  cameraHandle: number | null;
  screenHandle: number | null;
  screenFeedId: number | null;
  /** Audio mids Janus stopped relaying on a forced mute; let through again when the owner turns the microphone on. */
  mutedMids: string[];
  /** Who was admitted, so a change of the booking can be checked against them again (recheckMembership). */
  user: SessionUser;
  /** The person behind the socket in this meeting (participant id, or the visitor's subject): their tabs share one budget. */
  personKey: string;
  meetingId: string;
  meetingType: 0 | 1;
  /** The session behind the socket, and its hash (how a logout on another process names it): its end closes the socket. */
  sessionToken: string;
  sessionHash: string;
  /** The key the browser chose for this connection: with it (and the same user) a new socket resumes it. */
  resumeKey: string | null;
  /** The epoch of the media key this connection was last handed (0: none yet). */
  keyEpoch: number;
  /** The expiry of the TURN credentials this socket was last sent (0: none yet); see renewTurn. */
  turnExpiry: number;
  /** Who holds the socket across meetings: their handles and PeerConnections count together (media-holds.ts). */
  holder: Holder;
}

/** Another node's connection as this node knows it, with whether it may publish (who may see it). */
export interface HeldConnection {
  connection: MediaConnection;
  publish: boolean;
}

/** A new connection's entry: nothing published or muted yet, no media key or TURN credentials sent on its socket. */
export function newLiveConnection(c: Pick<LiveConnection, 'connection' | 'relay' | 'capabilities' | 'user' | 'personKey' | 'meetingId' | 'meetingType' | 'sessionToken' | 'resumeKey' | 'holder'>): LiveConnection {
  return { ...c, cameraHandle: null, screenHandle: null, screenFeedId: null, mutedMids: [], sessionHash: sha256(c.sessionToken), keyEpoch: 0, turnExpiry: 0 };
}

export const HOLD_SCOPES: HoldScope[] = ['person', 'session', 'address'];

/** A connection as `/media` announces it. */
export function view(e: LiveConnection): MediaConnection {
  return { ...e.connection, screenFeedId: e.screenFeedId };
}

export function sees(viewer: LiveConnection, subject: Pick<LiveConnection, 'capabilities'>): boolean {
  return seesConnection(viewer.meetingType, viewer.capabilities, subject.capabilities);
}

/**
 * The PeerConnections of a person (all their sockets in the meeting) and of the whole meeting, as the relay policy
 * weighs a join; `sockets` lists each socket's person and its count.
 */
export function personUsage(sockets: { personKey: string; peerConnections: number; publishers: number }[], personKey: string, limits: PeerConnectionUsage['limits']): PeerConnectionUsage {
  const person = { peerConnections: 0, publishers: 0 };
  let meeting = 0;
  for (const s of sockets) {
    meeting += s.peerConnections;
    if (s.personKey !== personKey) continue;
    person.peerConnections += s.peerConnections;
    person.publishers += s.publishers;
  }
  return { person, meeting: { peerConnections: meeting }, limits };
}

/** What `holder` holds on this node: handles and PeerConnections of every socket sharing its person, session or address. */
export function heldBy(holder: Holder, sockets: { holder: Holder; handles: number; peerConnections: number }[]): HoldUsage['held'] {
  const held = { handles: { person: 0, session: 0, address: 0 }, peerConnections: { person: 0, session: 0, address: 0 } };
  for (const s of sockets) {
    for (const scope of HOLD_SCOPES) {
      if (s.holder[scope] !== holder[scope]) continue;
      held.handles[scope] += s.handles;
      held.peerConnections[scope] += s.peerConnections;
    }
  }
  return held;
}

/**
 * This process's `/media` connections by meeting, and what is said to them: the hello, the announcements of who
 * comes, changes and goes (each told only to those who may see it), and whether the meeting is end-to-end encrypted.
 */
export class LiveConnections {
  private readonly byMeeting = new Map<string, Map<string, LiveConnection>>();
  /** Meetings whose media is protected in transit only now (a browser without encoded transforms is in them). */
  private readonly transitOnly = new Set<string>();

  in(meetingId: string): LiveConnection[] {
    return [...(this.byMeeting.get(meetingId)?.values() ?? [])];
  }

  get(meetingId: string, connectionId: string): LiveConnection | undefined {
    return this.byMeeting.get(meetingId)?.get(connectionId);
  }

  count(meetingId: string): number {
    return this.byMeeting.get(meetingId)?.size ?? 0;
  }

  add(entry: LiveConnection): void {
    const conns = this.byMeeting.get(entry.meetingId) ?? new Map<string, LiveConnection>();
    this.byMeeting.set(entry.meetingId, conns);
    conns.set(entry.connection.connectionId, entry);
  }

  remove(meetingId: string, connectionId: string): void {
    const conns = this.byMeeting.get(meetingId);
    conns?.delete(connectionId);
    if (conns && conns.size === 0) this.byMeeting.delete(meetingId);
  }

  each(fn: (c: LiveConnection) => void): void {
    for (const conns of this.byMeeting.values()) for (const c of [...conns.values()]) fn(c);
  }

  /** Every connection by meeting, as the other nodes are told (HeldConnection). */
  held(): Record<string, HeldConnection[]> {
    const held: Record<string, HeldConnection[]> = {};
    for (const [meetingId, conns] of this.byMeeting) {
      if (conns.size) held[meetingId] = [...conns.values()].map((c) => ({ connection: view(c), publish: c.capabilities.publish }));
    }
    return held;
  }

  clear(): void {
    this.byMeeting.clear();
  }

  /** The connection resumed by a new socket: the same browser's key and the same user. */
  resumable(meetingId: string, resumeKey: string, subject: string): LiveConnection | undefined {
    return this.in(meetingId).find((c) => c.resumeKey === resumeKey && c.user.subject === subject);
  }

  /**
   * The first message on a socket, new or resumed: its connection, and every connection it may see (`others`: the
   * other nodes' ones it may see); the page replaces its whole list with this one.
   */
  hello(entry: LiveConnection, others: MediaConnection[], resumed = false): MediaServerMessage {
    return {
      videomote: 'connected',
      connectionId: entry.connection.connectionId,
      capabilities: entry.capabilities,
      roomId: entry.relay.context.roomId,
      connections: [...this.in(entry.meetingId).filter((c) => c === entry || sees(entry, c)).map(view), ...others],
      ...(resumed ? { resumed: true } : {}),
    };
  }

  /** Tells the meeting's connections here about `subject`: those allowed to see it (a webcast's viewers see only who may present). */
  tellAbout(subject: LiveConnection, message: MediaServerMessage): void {
    for (const c of this.in(subject.meetingId)) if (c === subject || sees(c, subject)) c.relay.sendOwn(message);
  }

  /** To the meeting's connections here that may see a connection of another node. */
  deliverAbout(meetingId: string, subjectPublishes: boolean, message: MediaServerMessage): void {
    for (const c of this.in(meetingId)) if (seesConnection(c.meetingType, c.capabilities, { publish: subjectPublishes })) c.relay.sendOwn(message);
  }

  /** The connection (other than `except`) that shares a screen in the meeting now, on this process. */
  screenSharer(meetingId: string, except: string): LiveConnection | null {
    return this.in(meetingId).find((c) => c.connection.connectionId !== except && c.screenFeedId) ?? null;
  }

  /** A feed some connection of the meeting here publishes now (camera or screen share), as announced on `/media`. */
  publishes(meetingId: string, feedId: number): boolean {
    return this.in(meetingId).some((c) => c.connection.feedId === feedId || c.screenFeedId === feedId);
  }

  /**
   * Tells the meeting's connections here whether its media is end-to-end encrypted, when that changes (a browser
   * without encoded transforms came or went, here or on another node: `remote`), and `newcomer` in any case.
   */
  syncProtection(meetingId: string, remote: MediaConnection[], newcomer?: LiveConnection): void {
    const local = this.in(meetingId);
    if (!local.length) return void this.transitOnly.delete(meetingId);
    const endToEnd = meetingEndToEnd([...local.map((c) => c.connection), ...remote]);
    const was = !this.transitOnly.has(meetingId);
    if (endToEnd) this.transitOnly.delete(meetingId);
    else this.transitOnly.add(meetingId);
    const message = { videomote: 'mediaProtection', endToEnd } satisfies MediaServerMessage;
    if (endToEnd !== was) for (const c of local) c.relay.sendOwn(message);
    else newcomer?.relay.sendOwn(message);
  }

  /** The PeerConnections of a person and of the meeting; `self` is counted before it is listed (its first messages come during connect). */
  usage(meetingId: string, personKey: string, self: JanusRelay, limits: PeerConnectionUsage['limits']): PeerConnectionUsage {
    const conns = this.in(meetingId).map((c) => ({ relay: c.relay, personKey: c.personKey }));
    if (!conns.some((c) => c.relay === self)) conns.push({ relay: self, personKey });
    return personUsage(conns.map((c) => ({ personKey: c.personKey, ...c.relay.peerConnections() })), personKey, limits);
  }

  /** What `holder` holds on this node, across meetings; `self` is counted before it is listed. */
  heldBy(holder: Holder, self: JanusRelay): HoldUsage['held'] {
    const sockets: { holder: Holder; relay: JanusRelay }[] = [];
    this.each((c) => sockets.push({ holder: c.holder, relay: c.relay }));
    if (!sockets.some((s) => s.relay === self)) sockets.push({ holder, relay: self });
    return heldBy(holder, sockets.map((s) => ({ holder: s.holder, handles: s.relay.handles(), peerConnections: s.relay.peerConnections().peerConnections })));
  }

  /** This node's handles and PeerConnections per holder key, for the other nodes' caps. */
  holdTotals(): Record<string, [number, number]> {
    const totals: Record<string, [number, number]> = {};
    this.each((c) => {
      const [handles, pcs] = [c.relay.handles(), c.relay.peerConnections().peerConnections];
      for (const scope of HOLD_SCOPES) {
        const t = (totals[c.holder[scope]] ??= [0, 0]);
        t[0] += handles;
        t[1] += pcs;
      }
    });
    return totals;
  }

  /** What this process relays now: `/media` connections and the feeds they publish (cameras and screens). */
  totals(): { connections: number; publishers: number } {
    let connections = 0;
    let publishers = 0;
    this.each((c) => {
      connections += 1;
      publishers += c.relay.publishedFeeds().length;
    });
    return { connections, publishers };
  }
}
