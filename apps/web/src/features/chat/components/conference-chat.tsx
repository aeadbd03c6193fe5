import { useChat } from '../hooks/use-chat.ts';
import { ChatPanel } from './chat-panel.tsx';
import '../chat.css';

/** The chat panel as the conference's side panel shows it: one meeting, closed by the page. */
export function ConferenceChatPanel({ meetingId, onClose }: { meetingId: string; onClose(): void }) {
  const chat = useChat({ meetingId });
  return <ChatPanel chat={chat} onClose={onClose} />;
}

const unreadLabel = (n: number) => (n === 1 ? '1 oläst meddelande' : `${n.toLocaleString('sv-SE')} olästa meddelanden`);

/**
 * The unread badge on the chat button (spec §2 control bar). It is mounted for the whole call, so it is also
 * what keeps the chat connected while the panel is closed and messages are being counted.
 */
export function ChatUnreadBadge({ meetingId }: { meetingId: string }) {
  const { state } = useChat({ meetingId });
  if (state.unread === 0) return null;
  return (
    <span className="chat-unread-badge" data-testid="chat-unread-badge">
      <span aria-hidden="true">{state.unread > 99 ? '99+' : state.unread}</span>
      <span className="visually-hidden">{`, ${unreadLabel(state.unread)}`}</span>
    </span>
  );
}
