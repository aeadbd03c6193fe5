import { describe, expect, it } from 'vitest';
import { CHAT_PING_COMMAND } from '@videomote/contract/chat';
import { CHAT_PING_MS, CHAT_STALE_MS, CHAT_SUSPECT_MS, ChatSocket, type SocketLike } from './chat-socket.ts';
import { handClock } from '../../../testing/hand-clock.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  send(d: string) {
    this.sent.push(d);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code });
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const messages: string[] = [];
  const downs: { code: number; willRetry: boolean }[] = [];
  const client = new ChatSocket(
    'ws://x/chat/m',
    { onMessage: (m) => messages.push(m), onDown: (d) => downs.push(d) },
    {
      createSocket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      setTimer: (fn, ms) => timers.push({ fn, ms }),
      clearTimer: () => timers.splice(0),
      heartbeat: null,
    },
  );
  return { client, sockets, timers, messages, downs };
}

describe('ChatSocket', () => {
  it('reconnects 5 s after an error or close, delivering text frames and sending only while open', () => {
    const h = harness();
    h.client.connect();
    expect(h.client.send('early')).toBe(false);
    h.sockets[0]!.open();
    h.sockets[0]!.onmessage?.({ data: '{"type":"STATUS"}' });
    expect(h.client.send('hej')).toBe(true);
    h.sockets[0]!.drop();
    expect(h.downs).toEqual([{ code: 1006, willRetry: true }]);
    expect(h.timers.map((t) => t.ms)).toEqual([5000]);
    h.timers.shift()!.fn();
    expect(h.sockets).toHaveLength(2);
    expect(h.messages).toEqual(['{"type":"STATUS"}']);
    expect(h.sockets[0]!.sent).toEqual(['hej']);
  });

  it('does not reconnect after a deliberate close or when the session has ended', () => {
    const h = harness();
    h.client.connect();
    h.sockets[0]!.open();
    h.client.close();
    expect(h.sockets[0]!.readyState).toBe(3);
    expect(h.timers).toEqual([]);

    const g = harness();
    g.client.connect();
    g.sockets[0]!.drop(4401);
    expect(g.downs).toEqual([{ code: 4401, willRetry: false }]);
    expect(g.timers).toEqual([]);

    // Removed from the meeting (or the meeting deleted): reconnecting would only be refused.
    const r = harness();
    r.client.connect();
    r.sockets[0]!.drop(4403);
    expect(r.downs).toEqual([{ code: 4403, willRetry: false }]);
    expect(r.timers).toEqual([]);
  });

  it('connects again at once when the meeting admin changed the participant’s rights', () => {
    const h = harness();
    h.client.connect();
    h.sockets[0]!.open();
    h.sockets[0]!.drop(4409);
    expect(h.downs).toEqual([{ code: 4409, willRetry: true }]);
    expect(h.timers.map((t) => t.ms)).toEqual([0]);
    h.timers.shift()!.fn();
    expect(h.sockets).toHaveLength(2);
  });
});

describe('ChatSocket health check', () => {
  /** Timers and clock moved by hand. */
  function beating() {
    const clock = handClock();
    const sockets: FakeSocket[] = [];
    const messages: string[] = [];
    const downs: { code: number; willRetry: boolean }[] = [];
    const client = new ChatSocket(
      'ws://x/chat/m',
      { onMessage: (m) => messages.push(m), onDown: (d) => downs.push(d) },
      {
        createSocket: () => {
          const s = new FakeSocket();
          sockets.push(s);
          return s;
        },
        setTimer: clock.timers.set,
        clearTimer: clock.timers.clear,
        heartbeat: { pingMs: CHAT_PING_MS, staleMs: CHAT_STALE_MS, now: clock.now },
      },
    );
    return { client, sockets, messages, downs, advance: clock.advance };
  }
  const PONG = '{"type":"PONG","data":null}';

  it('pings every 5 s and keeps a socket that answers; the answers are not passed on', () => {
    const h = beating();
    h.client.connect();
    h.sockets[0]!.open();
    for (let i = 0; i < 10; i++) {
      h.advance(CHAT_PING_MS);
      h.sockets[0]!.onmessage?.({ data: PONG });
    }
    expect(h.sockets[0]!.sent).toEqual(Array(10).fill(CHAT_PING_COMMAND));
    expect(h.messages).toEqual([]);
    expect(h.sockets).toHaveLength(1);
    expect(h.downs).toEqual([]);
  });

  it('drops a socket that stays silent (half-open) and opens a new one at once, which is watched in turn', () => {
    const h = beating();
    h.client.connect();
    h.sockets[0]!.open();
    h.advance(CHAT_PING_MS);
    h.sockets[0]!.onmessage?.({ data: '{"type":"STATUS","data":{"chatOpen":true}}' });
    expect(h.messages).toHaveLength(1);
    expect(h.client.send('hej')).toBe(true);
    // A health check goes unanswered: nothing more is sent on the suspect socket (the user's text is kept).
    h.advance(CHAT_PING_MS + CHAT_SUSPECT_MS);
    expect(h.client.send('borta?')).toBe(false);
    expect(h.sockets[0]!.sent).not.toContain('borta?');
    // The path goes: no more frames, and no close either.
    h.advance(CHAT_STALE_MS - CHAT_PING_MS - CHAT_SUSPECT_MS - 1);
    expect(h.sockets).toHaveLength(1);
    h.advance(CHAT_PING_MS);
    expect(h.downs).toEqual([{ code: 1006, willRetry: true }]);
    expect(h.sockets[0]!.readyState).toBe(3);
    h.advance(0);
    expect(h.sockets).toHaveLength(2);
    // A late frame of the old socket is not delivered.
    h.sockets[0]!.onmessage?.({ data: 'late' });
    expect(h.messages).toHaveLength(1);
    h.sockets[1]!.open();
    h.advance(CHAT_PING_MS);
    expect(h.sockets[1]!.sent).toEqual([CHAT_PING_COMMAND]);
    h.client.close();
    h.advance(CHAT_STALE_MS * 3);
    expect(h.sockets).toHaveLength(2);
  });
});
