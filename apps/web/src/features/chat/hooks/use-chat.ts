import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ChatState } from '../model/chat-model.ts';
import { chatModelFor, holdChatConnection } from './chat-connections.ts';

export interface ChatController {
  state: ChatState;
  /** Answers whether the message went out (false when empty or while disconnected). */
  send(text: string): boolean;
  remove(messageId: string): void;
  toggleIgnore(connectionId: string, ignore: boolean): void;
  setChatOpen(open: boolean): void;
  /** Issue 10: raised hand (own), lowered by its owner (null) or by a moderator (a connection id). */
  raiseHand(): void;
  lowerHand(connectionId?: string | null): void;
  /** The text interpreter's caption line (see ChatModel.sendCaption). */
  sendCaption(lineId: string, text: string, final: boolean): boolean;
  /** Whether the chat panel shows; showing it clears the unread count (spec §4). */
  setVisible(visible: boolean): void;
}

/**
 * The chat of a meeting for React: subscribes to the meeting's shared ChatModel and holds its socket open while
 * mounted. Every component using it for one meeting sees the same state over the same socket.
 */
export function useChat({ meetingId, enabled = true }: { meetingId: string; enabled?: boolean }): ChatController {
  const model = chatModelFor(meetingId);
  const state = useSyncExternalStore(model.subscribe, model.getState);

  useEffect(() => (enabled ? holdChatConnection(meetingId) : undefined), [meetingId, enabled]);

  // Actions are stable for the meeting, so a component can depend on one without re-running on every message.
  const actions = useMemo(
    () => ({
      send: (text: string) => model.send(text),
      remove: (id: string) => void model.remove(id),
      toggleIgnore: (connectionId: string, ignore: boolean) => void model.toggleIgnore(connectionId, ignore),
      setChatOpen: (open: boolean) => void model.setChatOpen(open),
      raiseHand: () => void model.raiseHand(),
      lowerHand: (connectionId: string | null = null) => void model.lowerHand(connectionId),
      setVisible: (visible: boolean) => model.setVisible(visible),
      sendCaption: (lineId: string, text: string, final: boolean) => model.sendCaption(lineId, text, final),
    }),
    [model],
  );
  return useMemo(() => ({ state, ...actions }), [state, actions]);
}
