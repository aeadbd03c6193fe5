import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { ChatModel, type ChatState } from '../model/chat-model.ts';
import { ChatSocket } from '../socket/chat-socket.ts';
import { CHAT_TEXTS } from '../texts.ts';

export interface ChatController {
  state: ChatState;
  /** Answers whether the message went out (false when empty or while disconnected). */
  send(text: string): boolean;
  remove(messageId: string): void;
  toggleIgnore(connectionId: string, ignore: boolean): void;
  setChatOpen(open: boolean): void;
  /** The conference page tells whether the chat panel shows; opening it clears the unread count. */
  setVisible(visible: boolean): void;
}

/**
 * The chat of a meeting for React: one socket while mounted (closed deliberately on unmount, so leaving the
 * conference does not reconnect), state from the framework-free ChatModel.
 */
export function useChat({ meetingId, enabled = true }: { meetingId: string; enabled?: boolean }): ChatController {
  const model = useMemo(() => new ChatModel(), [meetingId]);
  const state = useSyncExternalStore(model.subscribe, model.getState);

  useEffect(() => {
    if (!enabled) return;
    let socket: ChatSocket | null = null;
    let cancelled = false;
    let failedOnce = false;
    void loadClientConfig().then((config) => {
      if (cancelled) return;
      socket = new ChatSocket(`${config.chatBaseUrl}/${encodeURIComponent(meetingId)}`, {
        onMessage: (raw) => model.receiveRaw(raw),
        onOpen: () => (failedOnce = false),
        onDown: ({ willRetry }) => {
          model.setConnection('disconnected');
          // One line per outage, not one per 5-second retry.
          if (!failedOnce) model.notify('ERROR', CHAT_TEXTS.connectionFailed);
          failedOnce = true;
          if (willRetry) model.setConnection('connecting');
        },
      });
      model.attach((frame) => socket?.send(frame) ?? false);
      socket.connect();
    });
    return () => {
      cancelled = true;
      model.attach(() => false);
      socket?.close();
    };
  }, [model, meetingId, enabled]);

  // Actions are stable for the meeting, so a component can depend on one without re-running on every message.
  const actions = useMemo(
    () => ({
      send: (text: string) => model.send(text),
      remove: (id: string) => void model.remove(id),
      toggleIgnore: (connectionId: string, ignore: boolean) => void model.toggleIgnore(connectionId, ignore),
      setChatOpen: (open: boolean) => void model.setChatOpen(open),
      setVisible: (visible: boolean) => model.setVisible(visible),
    }),
    [model],
  );
  return useMemo(() => ({ state, ...actions }), [state, actions]);
}
