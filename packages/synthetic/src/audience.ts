/**
 * A webcast's audience: many synthetic visitors admitted through the public room link (name, gettoken, `/media`),
 * each subscribed to the presenter's feed, joining a few at a time as when a webcast's link is opened by many at its
 * start. The webcast bench (bench/webcast.ts) and the failure tests (e2e/) drive the same visitors.
 */
import type { MediaConnection } from '@videomote/contract/media';
import { SyntheticParticipant } from './participant.ts';
import { SyntheticViewer, type WantedFeed } from './viewer.ts';
import type { Clips } from './clips.ts';

export interface AudienceOptions {
  base: string;
  meetingId: string;
  /** The webcast's public room id (the link's /publicaccess/{roomId}). */
  roomId: string;
  count: number;
  /** What each visitor asks Janus for, given the presenter's camera feed. */
  wanted: (feed: number) => WantedFeed[];
  feed: number;
  clips: Clips;
  /** Each visitor's client address as a trusted proxy reports it (the public-access budget counts per address). */
  address: (index: number) => string;
  /** Joins at a time (default 8). */
  concurrency?: number;
  /**
   * Start afresh when the `/media` socket is lost (its app node or Janus died), as the web app does, and subscribe
   * again to the presenter's camera, found by `presenter` among the announced connections.
   */
  recover?: { presenter: (c: MediaConnection) => boolean };
}

export interface AudienceMember {
  participant: SyntheticParticipant;
  viewer: SyntheticViewer;
  joinMs: number;
}

export interface Audience {
  members: AudienceMember[];
  failed: number;
  /** The first few failures' messages. */
  errors: string[];
}

export async function joinAudience(opts: AudienceOptions): Promise<Audience> {
  const members: AudienceMember[] = [];
  const errors: string[] = [];
  let failed = 0;
  let next = 0;
  const joinOne = async (i: number) => {
    const t0 = performance.now();
    let participant: SyntheticParticipant | null = null;
    try {
      participant = await SyntheticParticipant.join({
        base: opts.base,
        meetingId: opts.meetingId,
        login: { visitor: { roomId: opts.roomId, displayName: `Tittare ${i + 1}` } },
        forwardedFor: opts.address(i),
      });
      const viewer = await SyntheticViewer.subscribe(participant, opts.wanted(opts.feed), opts.clips);
      if (opts.recover) viewer.followCamera(opts.recover.presenter, opts.wanted, opts.feed);
      members.push({ participant, viewer, joinMs: performance.now() - t0 });
    } catch (err) {
      participant?.close();
      failed += 1;
      if (errors.length < 3) errors.push(`viewer ${i + 1}: ${(err as Error).message}`);
    }
  };
  await Promise.all(
    Array.from({ length: opts.concurrency ?? 8 }, async () => {
      while (next < opts.count) await joinOne(next++);
    }),
  );
  return { members, failed, errors };
}

/** Everyone leaves. */
export function leaveAudience(audience: Audience): void {
  for (const m of audience.members) {
    m.viewer.close();
    m.participant.close();
  }
}
