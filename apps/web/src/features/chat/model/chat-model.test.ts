import { describe, expect, it } from 'vitest';
import { ChatSignalTypes as T, type ChatMessageEvent, type ChatSignal, type WelcomeData } from '@videomote/contract/chat';
import { ChatModel, senderName } from './chat-model.ts';
import { presenceEntry as person } from '../../../testing/presence.ts';

const message = (id: string, fromId: string, text = `text ${id}`, fromName = ''): ChatMessageEvent => ({
  id,
  type: T.chatMessage,
  message: text,
  fromId,
  fromName,
  timestamp: `2026-11-21T10:00:0${id.length % 10}.000Z`,
});
const welcome = (data: Partial<WelcomeData> = {}): ChatSignal => ({
  type: T.welcome,
  data: { connectionId: 'me', participantId: null, moderator: false, meetingType: 1, chatOpen: true, history: [], participants: [person('me', 'Jag')], ...data },
});
const chat = (m: ChatMessageEvent): ChatSignal => ({ type: T.chatMessage, data: m });

function connected(data: Partial<WelcomeData> = {}) {
  const model = new ChatModel(() => new Date('2026-11-21T10:00:00Z'));
  const sent: string[] = [];
  model.attach((f) => (sent.push(f), true));
  model.receive(welcome(data));
  return { model, sent };
}

describe('ChatModel', () => {
  it('counts unread chat messages only while the chat is closed, and opening resets the count', () => {
    const { model } = connected();
    model.receive(chat(message('a', 'other')));
    model.receive({ type: T.notification, data: { id: 'n', type: T.notification, message: 'info', severity: 'INFO', timestamp: '2026-11-21T10:00:00Z' } });
    model.receive(chat(message('b', 'other')));
    expect(model.getState().unread).toBe(2);
    model.setVisible(true);
    expect(model.getState().unread).toBe(0);
    model.receive(chat(message('c', 'other')));
    expect(model.getState().unread).toBe(0);
    model.setVisible(false);
    model.receive(chat(message('d', 'me')));
    expect(model.getState().unread).toBe(0); // one's own message is not unread
  });

  it('keeps the ignore list without duplicates and drops messages from ignored senders', () => {
    const { model } = connected({ participants: [person('me', 'Jag'), person('x', 'X', { chatIgnored: true })] });
    expect(model.getState().ignoreList).toEqual(['x']);
    model.receive({ type: T.toggleIgnoreChat, data: { connectionId: 'x', ignore: true } });
    model.receive({ type: T.toggleIgnoreChat, data: { connectionId: 'y', ignore: true } });
    model.receive({ type: T.toggleIgnoreChat, data: { connectionId: 'y', ignore: true } });
    expect(model.getState().ignoreList).toEqual(['x', 'y']);
    model.receive(chat(message('a', 'y')));
    expect(model.getState().events).toEqual([]);
    model.receive({ type: T.toggleIgnoreChat, data: { connectionId: 'y', ignore: false } });
    model.receive(chat(message('b', 'y')));
    expect(model.getState().ignoreList).toEqual(['x']);
    expect(model.getState().events.map((e) => e.id)).toEqual(['b']);
    expect(model.getState().participants.find((p) => p.connectionId === 'x')?.chatIgnored).toBe(true);
  });

  it('removes an event by id, ignores duplicates, and takes the chatOpen status', () => {
    const { model } = connected();
    model.receive(chat(message('a', 'o')));
    model.receive(chat(message('a', 'o')));
    model.receive(chat(message('bb', 'o')));
    model.receive({ type: T.removeChat, data: { id: 'a' } });
    expect(model.getState().events.map((e) => e.id)).toEqual(['bb']);
    expect(model.getState().chatOpen).toBe(true);
    model.receive({ type: T.status, data: { chatOpen: false } });
    expect(model.getState().chatOpen).toBe(false);
  });

  it('falls back from the connected participant’s name to the signal’s name to Anonym', () => {
    const people = [person('p1', 'Anna Ansluten')];
    expect(senderName(message('a', 'p1', 'hej', 'Gammalt namn'), people)).toBe('Anna Ansluten');
    expect(senderName(message('a', 'gone', 'hej', 'Från signalen'), people)).toBe('Från signalen');
    expect(senderName(message('a', 'gone', 'hej', ''), people)).toBe('Anonym');
    expect(senderName(message('a', 'p2', 'hej', ''), [person('p2', '  ')])).toBe('Anonym');
  });

  it('does not send an empty message and sends the spec’s frames otherwise', () => {
    const { model, sent } = connected({ moderator: true });
    expect(model.send('   ')).toBe(false);
    expect(sent).toEqual([]);
    expect(model.send('hej <b>du</b>')).toBe(true);
    model.remove('msg-1');
    model.toggleIgnore('c-9', true);
    model.setChatOpen(false);
    model.setChatOpen(true);
    const [c, r, t] = sent.slice(0, 3).map((f) => JSON.parse(f));
    expect(c).toMatchObject({ from: 'me', type: 'CHAT_MESSAGE', data: { data: 'hej <b>du</b>' }, displayName: 'Jag' });
    expect(typeof c.data.id).toBe('string');
    expect(r).toMatchObject({ type: 'REMOVE_CHAT', data: { data: 'msg-1' } });
    expect(JSON.parse(t.data.data)).toEqual({ connectionId: 'c-9', ignore: true });
    expect(sent.slice(3)).toEqual(['COMMAND:CHAT_CLOSE', 'COMMAND:CHAT_OPEN']);
  });

  it('on reconnect takes the server history, keeps own local notes, and still knows earlier own messages', () => {
    const { model } = connected({ history: [message('a', 'me')] });
    model.notify('ERROR', 'Anslutning misslyckades');
    model.receive(welcome({ connectionId: 'me-2', history: [message('a', 'me'), message('bb', 'other')] }));
    const s = model.getState();
    expect(s.ownConnectionIds).toEqual(['me', 'me-2']);
    expect(s.events.filter((e) => e.type === T.chatMessage).map((e) => e.id)).toEqual(['a', 'bb']);
    expect(s.events.some((e) => e.type === T.notification)).toBe(true);
  });

  it('on a reconnect whose history starts later (trimmed, or Redis restarted empty) keeps the messages from before it', () => {
    const { model } = connected({ history: [message('a', 'other'), message('bb', 'me')] });
    // The new history begins with 'ccc' (3 s); what the server no longer holds from before stays on screen.
    model.receive(welcome({ connectionId: 'me-2', history: [message('ccc', 'other')], historySince: '2026-11-21T10:00:03.000Z' }));
    expect(model.getState().events.map((e) => e.id)).toEqual(['a', 'bb', 'ccc']);
    // From its start the history is the truth: 'ccc' was removed while away.
    model.receive(welcome({ connectionId: 'me-3', history: [], historySince: '2026-11-21T10:00:03.000Z' }));
    expect(model.getState().events.map((e) => e.id)).toEqual(['a', 'bb']);
  });

  it('tracks presence: joins upsert, leaves remove', () => {
    const { model } = connected();
    model.receive({ type: T.presence, data: { joined: [person('a', 'A'), person('me', 'Jag')], left: [] } });
    model.receive({ type: T.presence, data: { joined: [], left: ['a'] } });
    model.receive({ type: T.presence, data: { joined: [person('b', 'B', { chatIgnored: true })], left: [] } });
    expect(model.getState().participants.map((p) => p.connectionId)).toEqual(['me', 'b']);
    expect(model.getState().ignoreList).toEqual(['b']);
  });

  it('ignores frames that are not signals', () => {
    const { model } = connected();
    const before = model.getState();
    model.receiveRaw('not json');
    model.receiveRaw('null');
    model.receiveRaw('{"type":"SOMETHING_ELSE"}');
    expect(model.getState()).toBe(before);
  });
});

describe('ChatModel captions', () => {
  const line = (id: string, text: string, final = false) => ({ id, text, final, fromId: 'tolk', fromName: 'Sara Skrivtolk', timestamp: '2026-11-21T10:00:00.000Z' });
  const caption = (l: ReturnType<typeof line>): ChatSignal => ({ type: T.caption, data: l });

  it('takes the latest lines from the welcome, replaces a growing line in place and adds new ones last', () => {
    const { model } = connected({ captions: [line('a', 'Hej', true)] });
    model.receive(caption(line('b', 'Vi')));
    model.receive(caption(line('b', 'Vi börjar')));
    model.receive(caption(line('b', 'Vi börjar nu.', true)));
    expect(model.getState().captions.map((c) => [c.text, c.final])).toEqual([
      ['Hej', true],
      ['Vi börjar nu.', true],
    ]);
    // A reconnect's welcome is the truth.
    model.receive(welcome({ captions: [] }));
    expect(model.getState().captions).toEqual([]);
  });

  it('sends the whole line so far under its id, with whether it is done', () => {
    const { model, sent } = connected();
    expect(model.sendCaption('l1', 'Hej och', false)).toBe(true);
    expect(JSON.parse(sent[0]!)).toMatchObject({ type: 'CAPTION', data: { id: 'l1', data: 'Hej och', final: false } });
  });
});
