import { describe, expect, it } from 'vitest';
import { ChatSignalTypes, type ChatMessageEvent } from '@videomote/contract/chat';
import { DeliveredMessages, missedMessages, parseSignal } from './chat-catch-up.ts';

const at = (id: string, ms: number): ChatMessageEvent => ({ id, type: ChatSignalTypes.chatMessage, message: id, fromId: 'p', fromName: 'P', timestamp: new Date(ms).toISOString() });

describe('catching up on chat messages after a resubscription', () => {
  it('delivers a message once, and forgets the oldest past its limit', () => {
    const delivered = new DeliveredMessages(2);
    expect([delivered.add('a'), delivered.add('a'), delivered.add('b'), delivered.add('c')]).toEqual([true, false, true, true]);
    expect([delivered.has('a'), delivered.has('b'), delivered.has('c')]).toEqual([false, true, true]);
  });

  it('finds the messages of the history since the cut-off that the node has not delivered, oldest first', () => {
    const delivered = new DeliveredMessages();
    delivered.add('live');
    const history = [at('old', 1_000), at('live', 5_000), at('missed', 6_000), at('later', 7_000)];
    expect(missedMessages(history, delivered, 2_000).map((m) => m.id)).toEqual(['missed', 'later']);
  });

  it('reads a signal, or nothing from what is not JSON', () => {
    expect(parseSignal(JSON.stringify({ type: ChatSignalTypes.chatMessage, data: at('x', 0) }))).toEqual({ type: ChatSignalTypes.chatMessage, data: at('x', 0) });
    expect(parseSignal('not json')).toBeNull();
  });
});
