import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChatSignalTypes as T } from '@videomote/contract/chat';
import { initialChatState, type ChatState } from '../model/chat-model.ts';
import type { ChatController } from '../hooks/use-chat.ts';
import { ChatPanel } from './chat-panel.tsx';

const controller = (state: Partial<ChatState>): ChatController => ({
  state: { ...initialChatState, connection: 'connected', connectionId: 'me', ownConnectionIds: ['me'], ...state },
  send: () => true,
  sendCaption: () => true,
  remove: () => {},
  toggleIgnore: () => {},
  setChatOpen: () => {},
  setVisible: () => {},
  raiseHand: () => {},
  lowerHand: () => {},
});

const events: ChatState['events'] = [
  { id: '1', type: T.chatMessage, message: '<img src=x onerror="alert(1)">', fromId: 'other', fromName: 'Olle', timestamp: '2026-11-21T09:15:00Z' },
  { id: '2', type: T.chatMessage, message: 'mitt', fromId: 'me', fromName: 'Jag', timestamp: '2026-11-21T09:16:00Z' },
  { id: '3', type: T.notification, message: 'Anslutning misslyckades', severity: 'ERROR', timestamp: '2026-11-21T09:17:00Z' },
];

describe('ChatPanel', () => {
  it('renders markup in messages as text, own bubbles as Du, others by name, with HH:mm', () => {
    const html = renderToStaticMarkup(<ChatPanel chat={controller({ events })} onClose={() => {}} />);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('>Du</span>');
    expect(html).toContain('>Olle</span>');
    expect(html).toContain('10:15');
    expect(html).toContain('aria-label="Fel"');
    expect(html).toContain('Skriv ett meddelande');
    expect(html).toContain('>Skicka<');
    expect(html).toContain('>Stäng<');
    expect(html).not.toContain('Ta bort meddelandet');
    expect(html).not.toContain('role="switch"');
  });

  it('gives a moderator of a webcast the pause toggle and delete buttons, and keeps the input while paused', () => {
    const html = renderToStaticMarkup(<ChatPanel chat={controller({ events, moderator: true, isWebcast: true, chatOpen: false })} onClose={() => {}} />);
    expect(html).toContain('role="switch" aria-checked="false"');
    expect(html).toContain('Av</button>');
    expect(html.match(/aria-label="Ta bort meddelandet"/g)).toHaveLength(2);
    expect(html).toContain('Chatten är pausad för deltagare');
    expect(html).toContain('Skriv ett meddelande');
  });

  it('shows others the paused text instead of the input; a moderator of a regular meeting has no pause toggle', () => {
    const paused = renderToStaticMarkup(<ChatPanel chat={controller({ chatOpen: false, isWebcast: true })} onClose={() => {}} />);
    expect(paused).toContain('Chatten är pausad av moderatorn');
    expect(paused).not.toContain('Skriv ett meddelande');
    const regular = renderToStaticMarkup(<ChatPanel chat={controller({ moderator: true, isWebcast: false })} onClose={() => {}} />);
    expect(regular).not.toContain('role="switch"');
  });
});
