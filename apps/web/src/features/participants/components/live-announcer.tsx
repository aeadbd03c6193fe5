import { useEffect, useRef, useState } from 'react';
import type { ChatEvent, PresenceEntry } from '@videomote/contract/chat';
import { announcements } from '../model/assurance.ts';

interface Snapshot {
  participants: readonly PresenceEntry[];
  events: readonly ChatEvent[];
}

/**
 * A polite live region, mounted for the whole call (a region added together with its text is often not read),
 * announcing people joining and leaving, new chat messages and, to moderators, raised hands. The first
 * snapshot after connecting is the starting point, not news.
 */
export function LiveAnnouncer({ state, ownConnectionIds, moderator, connected }: { state: Snapshot; ownConnectionIds: readonly string[]; moderator: boolean; connected: boolean }) {
  const prev = useRef<Snapshot | null>(null);
  const [lines, setLines] = useState<{ id: number; text: string }[]>([]);
  const counter = useRef(0);
  useEffect(() => {
    if (!connected) return;
    const before = prev.current;
    prev.current = state;
    if (!before) return;
    const news = announcements(before, state, { connectionIds: ownConnectionIds, moderator });
    if (news.length) setLines((l) => [...l, ...news.map((text) => ({ id: ++counter.current, text }))].slice(-5));
  }, [state, ownConnectionIds, moderator, connected]);
  return (
    <div className="visually-hidden" role="log" aria-live="polite" aria-relevant="additions" data-testid="live-announcer">
      {lines.map((l) => (
        <p key={l.id}>{l.text}</p>
      ))}
    </div>
  );
}
