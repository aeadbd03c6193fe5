import { Compile } from 'typebox/compile';
import { CAPTION_MAX_LENGTH, CHAT_CLOSE_COMMAND, CHAT_MAX_LENGTH, CHAT_OPEN_COMMAND, CHAT_PING_COMMAND, ChatSignalTypes, ClientFrame } from '@videomote/contract/chat';

/** What a client asked for, once its frame is read. The sender is never part of it: that comes from the session. */
export type ChatCommand =
  | { kind: 'chat'; text: string }
  | { kind: 'remove'; messageId: string }
  | { kind: 'toggleIgnore'; connectionId: string; ignore: boolean }
  | { kind: 'setOpen'; open: boolean }
  | { kind: 'raiseHand' }
  /** The client's health check: answered to this socket alone. */
  | { kind: 'ping' }
  /** connectionId null: one's own hand. */
  | { kind: 'lowerHand'; connectionId: string | null }
  /** The line being typed, whole so far; an empty text clears it (the interpreter erased it). */
  | { kind: 'caption'; lineId: string; text: string; final: boolean }
  | { kind: 'invalid'; message: string };

const frameSchema = Compile(ClientFrame);
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const CHAT_TEXTS = {
  invalid: 'Meddelandet kunde inte läsas.',
  empty: 'Skriv ett meddelande.',
  tooLong: `Meddelandet är för långt (högst ${CHAT_MAX_LENGTH} tecken).`,
  rateLimited: 'Du skickar för många meddelanden. Vänta en stund och försök igen.',
  forbidden: 'Du har inte behörighet till detta',
  paused: 'Chatten är pausad av moderatorn',
  ignored: 'Moderatorn har stängt av chatten för dig.',
  notConnected: 'Deltagaren är inte ansluten.',
  moderatorCannotBeMuted: 'Chatten kan inte stängas av för en moderator.',
  handForbidden: 'Bara moderatorn kan sänka någon annans hand.',
  captionForbidden: 'Bara mötets bokade skrivtolk kan skicka textning.',
  captionTooLong: `Textraden är för lång (högst ${CAPTION_MAX_LENGTH} tecken). Tryck Enter för en ny rad.`,
} as const;

/** Counts characters as people do (code points), so an emoji is one character, not two. */
export const textLength = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

// Control characters other than tab and newline have no place in a chat line (they can spoof or break layouts).
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/g;

/** Reads one text frame of the spec's wire format (conference spec §3, §7). */
export function parseClientFrame(raw: string): ChatCommand {
  if (raw === CHAT_CLOSE_COMMAND) return { kind: 'setOpen', open: false };
  if (raw === CHAT_OPEN_COMMAND) return { kind: 'setOpen', open: true };
  if (raw === CHAT_PING_COMMAND) return { kind: 'ping' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'invalid', message: CHAT_TEXTS.invalid };
  }
  if (!frameSchema.Check(json)) return { kind: 'invalid', message: CHAT_TEXTS.invalid };
  const frame = json as ClientFrame;
  switch (frame.type) {
    case ChatSignalTypes.chatMessage: {
      const text = frame.data.data.replace(/\r\n?/g, '\n').replace(CONTROL, '');
      if (!text.trim()) return { kind: 'invalid', message: CHAT_TEXTS.empty };
      if (textLength(text) > CHAT_MAX_LENGTH) return { kind: 'invalid', message: CHAT_TEXTS.tooLong };
      return { kind: 'chat', text };
    }
    case ChatSignalTypes.removeChat: {
      const messageId = frame.data.data;
      return ID_PATTERN.test(messageId) ? { kind: 'remove', messageId } : { kind: 'invalid', message: CHAT_TEXTS.invalid };
    }
    case ChatSignalTypes.toggleIgnoreChat: {
      let payload: unknown;
      try {
        payload = JSON.parse(frame.data.data);
      } catch {
        return { kind: 'invalid', message: CHAT_TEXTS.invalid };
      }
      const p = payload as { connectionId?: unknown; ignore?: unknown } | null;
      if (!p || typeof p.connectionId !== 'string' || !ID_PATTERN.test(p.connectionId) || typeof p.ignore !== 'boolean') {
        return { kind: 'invalid', message: CHAT_TEXTS.invalid };
      }
      return { kind: 'toggleIgnore', connectionId: p.connectionId, ignore: p.ignore };
    }
    case ChatSignalTypes.raiseHand:
      return { kind: 'raiseHand' };
    case ChatSignalTypes.lowerHand: {
      const target = frame.data.data;
      if (target === '') return { kind: 'lowerHand', connectionId: null };
      return ID_PATTERN.test(target) ? { kind: 'lowerHand', connectionId: target } : { kind: 'invalid', message: CHAT_TEXTS.invalid };
    }
    case ChatSignalTypes.caption: {
      const lineId = frame.data.id ?? '';
      if (!ID_PATTERN.test(lineId)) return { kind: 'invalid', message: CHAT_TEXTS.invalid };
      // A caption is one line on the stage: line breaks become spaces, control characters go.
      const text = frame.data.data.replace(/[\r\n]+/g, ' ').replace(CONTROL, '');
      if (textLength(text) > CAPTION_MAX_LENGTH) return { kind: 'invalid', message: CHAT_TEXTS.captionTooLong };
      return { kind: 'caption', lineId, text, final: frame.data.final === true };
    }
    default:
      return { kind: 'invalid', message: CHAT_TEXTS.invalid };
  }
}
