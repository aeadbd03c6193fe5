import { describe, expect, it } from 'vitest';
import { CHAT_HISTORY_LIMIT, ChatSignalTypes, type ChatMessageEvent } from './chat.ts';
import { historySince, messagesAfterWelcome } from './chat-history.ts';

const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s)).toISOString();
const msg = (id: string, s: number): ChatMessageEvent => ({ id, type: ChatSignalTypes.chatMessage, message: `text ${id}`, fromId: 'c', fromName: 'A', timestamp: at(s) });

describe('historySince', () => {
  it('is when the history began, or now when it holds nothing', () => {
    expect(historySince(at(5), [msg('a', 5), msg('b', 9)], new Date(at(30)))).toBe(at(5));
    expect(historySince(null, [], new Date(at(30)))).toBe(at(30));
  });

  it('is the oldest kept message once the history is trimmed to its limit', () => {
    const full = Array.from({ length: CHAT_HISTORY_LIMIT }, (_, i) => msg(`m${i}`, 10 + (i % 40)));
    expect(historySince(at(1), full, new Date(at(59)))).toBe(at(10));
  });
});

describe('messagesAfterWelcome', () => {
  it('keeps what the client holds from before the history (a Redis restarted empty), in time order', () => {
    const held = [msg('a', 1), msg('b', 2)];
    expect(messagesAfterWelcome(held, [msg('c', 20)], at(20)).map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(messagesAfterWelcome(held, [], at(30)).map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('takes the history as the truth from its start: a message removed while away goes, none twice', () => {
    const held = [msg('a', 1), msg('b', 2), msg('c', 3)];
    expect(messagesAfterWelcome(held, [msg('a', 1), msg('c', 3), msg('d', 4)], at(1)).map((m) => m.id)).toEqual(['a', 'c', 'd']);
  });

  it('without a start from the server (an older one) takes its history whole', () => {
    expect(messagesAfterWelcome([msg('a', 1)], [msg('b', 2)], undefined).map((m) => m.id)).toEqual(['b']);
  });
});
