import crypto from 'node:crypto';
import type { MediaConnection, MediaServerMessage } from '@videomote/contract/media';
import type { ClusterBus } from '../../platform/cluster-bus.ts';
import type { Holder } from '../../platform/media-holds.ts';
import type { HoldUsage } from './janus/relay-policy.ts';
import { HOLD_SCOPES, type HeldConnection } from './live-connections.ts';
import { withoutLeftFeed } from './remote-feed-left.ts';

/** How often a node tells the others which connections it holds, and after how long without that one is gone. */
export const ANNOUNCE_MS = 5_000;
export const REMOTE_EXPIRY_MS = 3 * ANNOUNCE_MS;

/** Whether something another node last said at `seen` still holds at `now` (a killed node says nothing more). */
export function stillHeard(seen: number, now: number): boolean {
  return now - seen < REMOTE_EXPIRY_MS;
}

/** Adds to `held` what the other nodes last said `holder`'s person, session and address hold there. */
export function addRemoteHolds(held: HoldUsage['held'], holder: Holder, nodes: Iterable<Record<string, [number, number]>>): HoldUsage['held'] {
  for (const counts of nodes) {
    for (const scope of HOLD_SCOPES) {
      const c = counts[holder[scope]];
      if (!c) continue;
      held.handles[scope] += c[0];
      held.peerConnections[scope] += c[1];
    }
  }
  return held;
}

interface RemoteConnection extends HeldConnection {
  seen: number;
}

export interface ClusterPresenceDeps {
  bus: ClusterBus;
  /** The app's clock: when another node was last heard of, and when that is too long ago (tests move it). */
  now: () => Date;
  /** Whether there are other nodes at all (REDIS_URL): only then does this node announce what it holds. */
  clustered: boolean;
  /** What this node holds, for its announcements. */
  held(): Record<string, HeldConnection[]>;
  holdTotals(): Record<string, [number, number]>;
  /** Tells this node's connections of the meeting that may see it about another node's connection. */
  deliver(meetingId: string, subjectPublishes: boolean, message: MediaServerMessage): void;
  /** The other nodes' connections of a meeting changed (the meeting's protection may have). */
  changed(meetingId: string): void;
}

/**
 * Other nodes' `/media` connections, as they announce them on the cluster bus: participants of one meeting spread
 * over the nodes behind the proxy see each other (and subscribe to each other's feeds), and the caps on what one
 * person holds count over every node. A node that stops announcing (killed) is forgotten after REMOTE_EXPIRY_MS.
 */
export class ClusterPresence {
  /** Connections other nodes hold, per meeting, with when they last said so. */
  private readonly remote = new Map<string, Map<string, RemoteConnection>>();
  /** What the other nodes hold per holder key ([handles, PeerConnections]), by node, with when they last said so. */
  private readonly remoteHolds = new Map<string, { seen: number; counts: Record<string, [number, number]> }>();
  private readonly nodeId = crypto.randomUUID();
  private readonly timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ClusterPresenceDeps) {
    deps.bus.on('media-connections', (raw) => this.fromAnotherNode(raw));
    // What another node's sockets hold per person, session and address: the caps count across nodes (media-holds.ts).
    deps.bus.on('media-holds', (raw) => {
      const { node, counts } = JSON.parse(raw) as { node: string; counts: Record<string, [number, number]> };
      this.remoteHolds.set(node, { seen: this.now(), counts });
    });
    if (deps.clustered) {
      this.timer = setInterval(() => this.announce(), ANNOUNCE_MS);
      this.timer.unref();
    }
  }

  private now(): number {
    return this.deps.now().getTime();
  }

  /** The other nodes' side of an announcement about a connection of this node, with what they need to filter it. */
  tell(meetingId: string, message: MediaServerMessage, subjectPublishes: boolean): void {
    void this.deps.bus.publish('media-connections', JSON.stringify({ meetingId, message, publish: subjectPublishes })).catch(() => {});
  }

  /** Other nodes' connections of the meeting, those a viewer with `mayView` may see (default: all). */
  connections(meetingId: string, mayView: (subjectPublishes: boolean) => boolean = () => true): MediaConnection[] {
    return [...(this.remote.get(meetingId)?.values() ?? [])].filter((r) => mayView(r.publish)).map((r) => r.connection);
  }

  ids(meetingId: string): string[] {
    return [...(this.remote.get(meetingId)?.keys() ?? [])];
  }

  /** A feed published through another node (behind the proxy, participants of one meeting are spread over the nodes). */
  publishes(meetingId: string, feedId: number): boolean {
    return this.connections(meetingId).some((c) => c.feedId === feedId || c.screenFeedId === feedId);
  }

  /** What the other nodes last said `holder` holds there, added to `held`; nodes not heard of for long are forgotten. */
  addHolds(held: HoldUsage['held'], holder: Holder): HoldUsage['held'] {
    const now = this.now();
    for (const [node, remote] of this.remoteHolds) if (!stillHeard(remote.seen, now)) this.remoteHolds.delete(node);
    return addRemoteHolds(held, holder, [...this.remoteHolds.values()].map((r) => r.counts));
  }

  /** A feed left the meeting's room: another node's connection that published it no longer does (see withoutLeftFeed). */
  feedLeft(meetingId: string, feedId: number): void {
    for (const r of this.remote.get(meetingId)?.values() ?? []) {
      const updated = withoutLeftFeed(r.connection, feedId);
      if (!updated) continue;
      r.connection = updated;
      this.deps.deliver(meetingId, r.publish, { videomote: 'connectionUpdated', connection: updated });
    }
  }

  /** An event of another node's connection, or its periodic list (which also ages out a dead node's connections). */
  private fromAnotherNode(raw: string): void {
    const parsed = JSON.parse(raw) as { meetingId?: string; message?: MediaServerMessage; publish?: boolean; held?: Record<string, HeldConnection[]> };
    const now = this.now();
    const upsert = (meetingId: string, connection: MediaConnection, publish: boolean) => {
      const conns = this.remote.get(meetingId) ?? new Map<string, RemoteConnection>();
      this.remote.set(meetingId, conns);
      const known = conns.has(connection.connectionId);
      conns.set(connection.connectionId, { connection, publish, seen: now });
      return known;
    };
    if (parsed.held) {
      for (const [meetingId, conns] of Object.entries(parsed.held)) {
        for (const c of conns) if (!upsert(meetingId, c.connection, c.publish)) this.deps.deliver(meetingId, c.publish, { videomote: 'connectionCreated', connection: c.connection });
        this.deps.changed(meetingId);
      }
      return;
    }
    const { meetingId, message } = parsed;
    const publish = parsed.publish === true;
    if (!meetingId || !message) return;
    if (message.videomote === 'connectionDestroyed') {
      this.remote.get(meetingId)?.delete(message.connectionId);
      if (this.remote.get(meetingId)?.size === 0) this.remote.delete(meetingId);
    } else if (message.videomote === 'connectionCreated' || message.videomote === 'connectionUpdated') {
      upsert(meetingId, message.connection, publish);
    } else {
      return;
    }
    this.deps.deliver(meetingId, publish, message);
    this.deps.changed(meetingId);
  }

  /** Tells the other nodes which connections this one holds; forgets theirs not heard of for REMOTE_EXPIRY_MS. */
  private announce(): void {
    const held = this.deps.held();
    if (Object.keys(held).length) void this.deps.bus.publish('media-connections', JSON.stringify({ held })).catch(() => {});
    // Every period, even with nothing held: the others then forget what this node held before.
    void this.deps.bus.publish('media-holds', JSON.stringify({ node: this.nodeId, counts: this.deps.holdTotals() })).catch(() => {});
    // The injected clock, as where `seen` is stamped: a test moves it past REMOTE_EXPIRY_MS (cross-node.api.test.ts).
    const now = this.now();
    for (const [meetingId, conns] of this.remote) {
      for (const [id, r] of conns) {
        if (stillHeard(r.seen, now)) continue;
        conns.delete(id);
        this.deps.deliver(meetingId, r.publish, { videomote: 'connectionDestroyed', connectionId: id });
      }
      if (!conns.size) this.remote.delete(meetingId);
      this.deps.changed(meetingId);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
