import { loadClientConfig } from '../../../lib/client-config.ts';
import { ChatCloseCodes } from '@videomote/contract/chat';
import { ChatModel } from '../model/chat-model.ts';
import { ChatSocket } from '../socket/chat-socket.ts';
import { CHAT_TEXTS } from '../texts.ts';

/**
 * One chat socket and model per meeting for the whole page, shared by every component that shows part of it (the
 * panel, the unread badge on the chat button, the participants panel), however often they mount and unmount.
 * The socket closes deliberately when the last of them goes (leaving the conference), and the state resets.
 */
interface Entry {
  model: ChatModel;
  refs: number;
  socket: ChatSocket | null;
  /** Deferred close, so an unmount followed at once by a mount (StrictMode, panel switches) keeps the socket. */
  closeTimer: ReturnType<typeof setTimeout> | null;
}

const entries = new Map<string, Entry>();

function entryFor(meetingId: string): Entry {
  let e = entries.get(meetingId);
  if (!e) {
    e = { model: new ChatModel(), refs: 0, socket: null, closeTimer: null };
    entries.set(meetingId, e);
  }
  return e;
}

export const chatModelFor = (meetingId: string): ChatModel => entryFor(meetingId).model;

/** A notification line from elsewhere in the meeting screen (e.g. the media connection failed). */
export function notifyChat(meetingId: string, severity: 'ERROR' | 'INFO', message: string): void {
  chatModelFor(meetingId).notify(severity, message);
}

/** Holds the meeting's chat connection open until the returned release is called. */
export function holdChatConnection(meetingId: string): () => void {
  const e = entryFor(meetingId);
  if (e.closeTimer) clearTimeout(e.closeTimer);
  e.closeTimer = null;
  e.refs++;
  if (!e.socket) start(meetingId, e);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    e.refs--;
    if (e.refs > 0) return;
    e.closeTimer = setTimeout(() => {
      e.closeTimer = null;
      e.socket?.close();
      e.socket = null;
      e.model.attach(() => false);
      e.model.reset();
    }, 0);
  };
}

function start(meetingId: string, e: Entry): void {
  const { model } = e;
  let failedOnce = false;
  const url = () => loadClientConfig().then((c) => `${c.chatBaseUrl}/${encodeURIComponent(meetingId)}`);
  const socket = new ChatSocket(url, {
    onMessage: (raw) => model.receiveRaw(raw),
    onOpen: () => (failedOnce = false),
    onDown: ({ code, willRetry }) => {
      if (code === ChatCloseCodes.rightsChanged) {
        model.notify('INFO', CHAT_TEXTS.rightsChanged);
        model.setConnection('connecting');
        return;
      }
      model.setConnection('disconnected');
      // One line per outage, not one per 5-second retry.
      if (!failedOnce) model.notify('ERROR', CHAT_TEXTS.connectionFailed);
      failedOnce = true;
      if (willRetry) model.setConnection('connecting');
    },
  });
  e.socket = socket;
  model.attach((frame) => socket.send(frame));
  model.setConnection('connecting');
  socket.connect();
}
