import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ChatSignalTypes, type ChatEvent, type PresenceEntry } from '@videomote/contract/chat';
import { senderName } from '../model/chat-model.ts';
import { formatChatTime, isNearBottom, SCROLL_THROTTLE_MS, throttle } from '../model/scroll.ts';
import { CHAT_TEXTS } from '../texts.ts';
import { ErrorIcon, InfoIcon, TrashIcon } from './chat-icons.tsx';

export interface ChatMessageListProps {
  events: readonly ChatEvent[];
  participants: readonly PresenceEntry[];
  ownConnectionIds: readonly string[];
  moderator: boolean;
  onRemove(messageId: string): void;
  /** Bumped by the parent when the user sends: sending re-enables auto-scroll (spec §4). */
  followSignal: number;
}

/**
 * Bubbles and notification lines. Every text is rendered as a React text node, never as markup, so a message
 * like `<img onerror=…>` shows as the characters typed.
 */
export function ChatMessageList({ events, participants, ownConnectionIds, moderator, onRemove, followSignal }: ChatMessageListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);

  const onScroll = useMemo(
    () =>
      throttle(() => {
        if (listRef.current) setFollow(isNearBottom(listRef.current));
      }, SCROLL_THROTTLE_MS),
    [],
  );
  useEffect(() => () => onScroll.cancel(), [onScroll]);

  useEffect(() => setFollow(true), [followSignal]);

  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && follow) el.scrollTop = el.scrollHeight;
  }, [events, follow]);

  const toLatest = () => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
    setFollow(true);
  };

  return (
    <div className="chat-messages">
      <div ref={listRef} className="chat-messages__scroller" role="log" aria-label={CHAT_TEXTS.messages} tabIndex={0} onScroll={onScroll}>
        <ol className="chat-messages__list">
          {events.map((event) => {
            const time = formatChatTime(event.timestamp);
            if (event.type === ChatSignalTypes.notification) {
              const error = event.severity === 'ERROR';
              return (
                <li key={event.id} className={`chat-notice chat-notice--${error ? 'error' : 'info'}`}>
                  <span className="chat-notice__icon" role="img" aria-label={error ? CHAT_TEXTS.error : CHAT_TEXTS.info}>
                    {error ? <ErrorIcon /> : <InfoIcon />}
                  </span>
                  <time dateTime={event.timestamp}>{time}</time>
                  <span className="chat-notice__text">{event.message}</span>
                </li>
              );
            }
            const own = ownConnectionIds.includes(event.fromId);
            return (
              <li key={event.id} className={`chat-bubble${own ? ' chat-bubble--own' : ''}`}>
                <div className="chat-bubble__meta">
                  <span className="chat-bubble__name">{own ? CHAT_TEXTS.you : senderName(event, participants)}</span>{' '}
                  <time dateTime={event.timestamp}>{time}</time>
                </div>
                <p className="chat-bubble__text">{event.message}</p>
                {moderator && (
                  <button type="button" className="chat-bubble__remove" aria-label={CHAT_TEXTS.remove} title={CHAT_TEXTS.remove} onClick={() => onRemove(event.id)}>
                    <TrashIcon />
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      </div>
      {!follow && (
        <button type="button" className="chat-messages__latest" onClick={toLatest}>
          {CHAT_TEXTS.toLatest}
        </button>
      )}
    </div>
  );
}
