import { describe, expect, it } from 'vitest';
import { CAPTION_MAX_LENGTH, CHAT_MAX_LENGTH } from '@videomote/contract/chat';
import { CHAT_TEXTS, parseClientFrame } from './chat-frames.ts';

const frame = (type: string, data: string) => JSON.stringify({ from: 'x', data: { id: 'local-1', data }, type, displayName: 'Vem som helst' });

describe('parseClientFrame', () => {
  it('reads a chat message and keeps markup as text', () => {
    expect(parseClientFrame(frame('CHAT_MESSAGE', '<script>alert(1)</script>'))).toEqual({ kind: 'chat', text: '<script>alert(1)</script>' });
  });

  it('reads the health check', () => {
    expect(parseClientFrame('COMMAND:PING')).toEqual({ kind: 'ping' });
  });

  it('reads the plain-text pause commands', () => {
    expect(parseClientFrame('COMMAND:CHAT_CLOSE')).toEqual({ kind: 'setOpen', open: false });
    expect(parseClientFrame('COMMAND:CHAT_OPEN')).toEqual({ kind: 'setOpen', open: true });
  });

  it('reads a removal and a toggle-ignore whose data is a JSON string', () => {
    expect(parseClientFrame(frame('REMOVE_CHAT', 'abc-123'))).toEqual({ kind: 'remove', messageId: 'abc-123' });
    expect(parseClientFrame(frame('TOGGLE_IGNORE_CHAT', JSON.stringify({ connectionId: 'c-1', ignore: true })))).toEqual({
      kind: 'toggleIgnore',
      connectionId: 'c-1',
      ignore: true,
    });
  });

  it('refuses empty, too long and malformed frames with a Swedish message', () => {
    expect(parseClientFrame(frame('CHAT_MESSAGE', '   \n '))).toEqual({ kind: 'invalid', message: CHAT_TEXTS.empty });
    expect(parseClientFrame(frame('CHAT_MESSAGE', 'a'.repeat(CHAT_MAX_LENGTH + 1)))).toEqual({ kind: 'invalid', message: CHAT_TEXTS.tooLong });
    for (const bad of ['not json', '{}', JSON.stringify({ type: 'CHAT_MESSAGE', data: { data: 5 } }), frame('EVIL', 'x'), frame('REMOVE_CHAT', '../../x'), frame('TOGGLE_IGNORE_CHAT', '{"connectionId":1}'), frame('TOGGLE_IGNORE_CHAT', 'nope'), 'null', 'COMMAND:SOMETHING']) {
      expect(parseClientFrame(bad).kind, bad).toBe('invalid');
    }
  });

  it('counts emoji as one character each and strips control characters', () => {
    expect(parseClientFrame(frame('CHAT_MESSAGE', '😀'.repeat(CHAT_MAX_LENGTH))).kind).toBe('chat');
    expect(parseClientFrame(frame('CHAT_MESSAGE', 'hej\u0000\u202Ed\r\nrad 2'))).toEqual({ kind: 'chat', text: 'hejd\nrad 2' });
  });
});

describe('parseClientFrame: caption lines', () => {
  const caption = (id: string | undefined, data: string, final?: boolean) => JSON.stringify({ type: 'CAPTION', data: { id, data, final } });

  it('reads the line so far, its id and whether it is done; line breaks become spaces', () => {
    expect(parseClientFrame(caption('line-1', 'Hej och välkom'))).toEqual({ kind: 'caption', lineId: 'line-1', text: 'Hej och välkom', final: false });
    expect(parseClientFrame(caption('line-1', 'Hej och\r\nvälkommen.', true))).toEqual({ kind: 'caption', lineId: 'line-1', text: 'Hej och välkommen.', final: true });
    // Erasing the whole line is a change the others must see too.
    expect(parseClientFrame(caption('line-2', ''))).toEqual({ kind: 'caption', lineId: 'line-2', text: '', final: false });
  });

  it('refuses a line without a usable id and a line above the limit', () => {
    expect(parseClientFrame(caption(undefined, 'x')).kind).toBe('invalid');
    expect(parseClientFrame(caption('../x', 'x')).kind).toBe('invalid');
    expect(parseClientFrame(caption('l', 'a'.repeat(CAPTION_MAX_LENGTH + 1)))).toEqual({ kind: 'invalid', message: CHAT_TEXTS.captionTooLong });
    expect(parseClientFrame(caption('l', 'a'.repeat(CAPTION_MAX_LENGTH))).kind).toBe('caption');
  });
});
