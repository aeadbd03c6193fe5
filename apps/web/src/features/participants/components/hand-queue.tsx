import { PARTICIPANTS_TEXTS } from '../texts.ts';
import { useId } from 'react';
import type { PresenceEntry } from '@videomote/contract/chat';
import { HAND_TEXTS, handQueue } from '../model/assurance.ts';
import { AssuranceLabel } from './assurance-label.tsx';

/** The moderator's queue of raised hands, first raised first; each can be lowered. */
export function HandQueue({ participants, onLower }: { participants: readonly PresenceEntry[]; onLower(connectionId: string): void }) {
  const headingId = useId();
  const queue = handQueue(participants);
  if (!queue.length) return null;
  return (
    <section className="hand-queue" aria-labelledby={headingId}>
      <h3 id={headingId} className="participants-panel__group">
        {HAND_TEXTS.queueTitle} ({queue.length})
      </h3>
      <ol className="hand-queue__list">
        {queue.map((p) => {
          const name = p.displayName.trim() || PARTICIPANTS_TEXTS.anonymous;
          return (
            <li key={p.connectionId} className="hand-queue__row" data-connection-id={p.connectionId}>
              <span className="hand-queue__name">{name}</span> <AssuranceLabel entry={p} />
              <button type="button" className="participants-row__chat" onClick={() => onLower(p.connectionId)}>
                <span aria-hidden="true">{HAND_TEXTS.lower}</span>
                <span className="visually-hidden">{HAND_TEXTS.lowerFor(name)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** One's own hand: a pressed toggle, so a screen reader says whether it is up. */
export function RaiseHandButton({ raised, onRaise, onLower }: { raised: boolean; onRaise(): void; onLower(): void }) {
  return (
    <button type="button" className="raise-hand" aria-pressed={raised} onClick={() => (raised ? onLower() : onRaise())}>
      {raised ? HAND_TEXTS.lower : HAND_TEXTS.raise}
    </button>
  );
}
