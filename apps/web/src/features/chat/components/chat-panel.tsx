import { useEffect, useId, useState } from 'react';
import type { ChatController } from '../hooks/use-chat.ts';
import { CHAT_TEXTS } from '../texts.ts';
import { ChatForm } from './chat-form.tsx';
import { ChatMessageList } from './chat-message-list.tsx';
import '../chat.css';

export interface ChatPanelProps {
  chat: ChatController;
  /** 'Stäng': the conference page hides the panel (it owns which side panel shows). */
  onClose(): void;
}

/**
 * The chat side panel (conference spec §2). Mounted means shown: while mounted, new messages are not unread.
 * What a moderator sees here (pause toggle, delete buttons) is convenience; the server enforces the powers.
 */
export function ChatPanel({ chat, onClose }: ChatPanelProps) {
  const { state } = chat;
  const headingId = useId();
  const [followSignal, setFollowSignal] = useState(0);

  const { setVisible } = chat;
  useEffect(() => {
    setVisible(true);
    return () => setVisible(false);
  }, [setVisible]);

  const canType = state.chatOpen || state.moderator;
  const send = (text: string) => {
    const sent = chat.send(text);
    if (sent) setFollowSignal((n) => n + 1);
    return sent;
  };

  return (
    <section className="chat-panel" aria-labelledby={headingId}>
      <header className="chat-panel__header">
        <h2 id={headingId} className="chat-panel__title">
          {CHAT_TEXTS.title}
        </h2>
        {state.moderator && state.isWebcast && (
          <button type="button" role="switch" aria-checked={state.chatOpen} className="chat-panel__pause" onClick={() => chat.setChatOpen(!state.chatOpen)}>
            <span className="visually-hidden">{CHAT_TEXTS.pauseToggle}: </span>
            <span className="chat-panel__pause-track" aria-hidden="true" />
            {state.chatOpen ? CHAT_TEXTS.on : CHAT_TEXTS.off}
          </button>
        )}
        <button type="button" className="chat-panel__close" onClick={onClose}>
          {CHAT_TEXTS.close}
        </button>
      </header>
      {state.connection === 'connecting' && state.connectionId === null && (
        <p className="chat-panel__status" role="status">
          {CHAT_TEXTS.connecting}
        </p>
      )}
      <ChatMessageList
        events={state.events}
        participants={state.participants}
        ownConnectionIds={state.ownConnectionIds}
        moderator={state.moderator}
        onRemove={chat.remove}
        followSignal={followSignal}
      />
      {!state.chatOpen && (
        <p className="chat-panel__paused" role="status">
          {state.moderator ? CHAT_TEXTS.pausedForModerator : CHAT_TEXTS.pausedForOthers}
        </p>
      )}
      {canType && <ChatForm onSend={send} />}
    </section>
  );
}
