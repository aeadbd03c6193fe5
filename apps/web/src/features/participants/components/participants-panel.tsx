import { useId } from 'react';
import type { PresenceEntry } from '@videomote/contract/chat';
import { canToggleChat, participantLists } from '../model/participants.ts';
import { PARTICIPANTS_TEXTS as T } from '../texts.ts';
import { CameraIcon, HandIcon, MicIcon } from './media-icons.tsx';
import { AssuranceLabel } from './assurance-label.tsx';
import { HandQueue, RaiseHandButton } from './hand-queue.tsx';
import { HAND_TEXTS } from '../model/assurance.ts';
import '../participants.css';

export interface MediaState {
  hasAudio: boolean;
  hasVideo: boolean;
}

export interface ParticipantsPanelProps {
  /** Who is connected (the chat socket's presence). */
  participants: readonly PresenceEntry[];
  isWebcast: boolean;
  /** The viewer moderates: regular participants get 'Chatt på' / 'Chatt av'. */
  moderator: boolean;
  ownConnectionId: string | null;
  /** Microphone and camera state per participant id, from the conference page's media session. */
  media?: Readonly<Record<string, MediaState>>;
  onToggleChat(connectionId: string, ignore: boolean): void;
  /** Raise one's own hand, lower one's own (null) or, for moderators, anyone's. Absent: no hands. */
  onRaiseHand?(): void;
  onLowerHand?(connectionId: string | null): void;
  onClose?(): void;
}

/** 'Deltagare (count)'; in a webcast 'Presentatörer' and 'Deltagare' (conference spec §2). */
export function ParticipantsPanel({ participants, isWebcast, moderator, ownConnectionId, media = {}, onToggleChat, onRaiseHand, onLowerHand, onClose }: ParticipantsPanelProps) {
  const headingId = useId();
  const lists = participantLists(participants);
  const row = (p: PresenceEntry) => {
    const name = p.displayName.trim() || T.anonymous;
    const state = p.participantId ? media[p.participantId] : undefined;
    return (
      <li key={p.connectionId} className="participants-row">
        <span className="participants-row__name">
          {name}
          {p.connectionId === ownConnectionId && <span className="participants-row__you"> {T.you}</span>}{' '}
          <AssuranceLabel entry={p} />
          {typeof p.hand === 'number' && (
            <span className="participants-row__hand" role="img" aria-label={HAND_TEXTS.raised} title={HAND_TEXTS.raised}>
              <HandIcon />
            </span>
          )}
        </span>
        {p.participantId !== null && state && (
          <span className="participants-row__media">
            <span role="img" aria-label={state.hasAudio ? T.micOn : T.micOff} title={state.hasAudio ? T.micOn : T.micOff} className={state.hasAudio ? '' : 'is-off'}>
              <MicIcon off={!state.hasAudio} />
            </span>
            <span role="img" aria-label={state.hasVideo ? T.cameraOn : T.cameraOff} title={state.hasVideo ? T.cameraOn : T.cameraOff} className={state.hasVideo ? '' : 'is-off'}>
              <CameraIcon off={!state.hasVideo} />
            </span>
          </span>
        )}
        {canToggleChat(moderator, p, ownConnectionId) && (
          <button type="button" role="switch" aria-checked={!p.chatIgnored} className="participants-row__chat" onClick={() => onToggleChat(p.connectionId, !p.chatIgnored)}>
            {p.chatIgnored ? T.chatOff : T.chatOn}
            <span className="visually-hidden">{T.chatFor(name)}</span>
          </button>
        )}
      </li>
    );
  };
  return (
    <section className="participants-panel" aria-labelledby={headingId}>
      <header className="participants-panel__header">
        <h2 id={headingId} className="participants-panel__title">
          {T.title(lists.count)}
        </h2>
        {onClose && (
          <button type="button" className="participants-panel__close" onClick={onClose}>
            {T.close}
          </button>
        )}
      </header>
      <div className="participants-panel__body">
        {onRaiseHand && onLowerHand && ownConnectionId && (
          <RaiseHandButton
            raised={typeof participants.find((p) => p.connectionId === ownConnectionId)?.hand === 'number'}
            onRaise={onRaiseHand}
            onLower={() => onLowerHand(null)}
          />
        )}
        {moderator && onLowerHand && <HandQueue participants={participants} onLower={(c) => onLowerHand(c)} />}
        {isWebcast ? (
          <>
            <h3 className="participants-panel__group">{T.presenters}</h3>
            <ul className="participants-list">{lists.presenters.map(row)}</ul>
            <h3 className="participants-panel__group">{T.participants}</h3>
            <ul className="participants-list">{lists.others.map(row)}</ul>
          </>
        ) : (
          <ul className="participants-list">{lists.everyone.map(row)}</ul>
        )}
      </div>
    </section>
  );
}
