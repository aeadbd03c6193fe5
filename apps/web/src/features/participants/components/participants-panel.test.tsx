import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PresenceEntry } from '@videomote/contract/chat';
import { ParticipantsPanel } from './participants-panel.tsx';
import { presenceEntry } from '../../../testing/presence.ts';

const entry = (connectionId: string, displayName: string, participantId: string | null, extra: Partial<PresenceEntry> = {}) =>
  presenceEntry(connectionId, displayName, { participantId, ...extra });
const people = [entry('c1', 'Erik Handläggare', 'p1', { moderator: true }), entry('c2', 'Vera', null), entry('c3', 'Sven', null, { chatIgnored: true })];

describe('ParticipantsPanel', () => {
  it('in a webcast lists presenters with media state and participants with chat switches for a moderator', () => {
    const html = renderToStaticMarkup(
      <ParticipantsPanel participants={people} isWebcast moderator ownConnectionId="c1" media={{ p1: { hasAudio: true, hasVideo: false } }} onToggleChat={() => {}} />,
    );
    expect(html).toContain('Deltagare (3)');
    expect(html).toContain('>Presentatörer</h3>');
    expect(html).toContain('aria-label="Mikrofon på"');
    expect(html).toContain('aria-label="Kamera av"');
    expect(html).toContain('Chatt på<span class="visually-hidden"> för Vera</span>');
    expect(html).toContain('Chatt av<span class="visually-hidden"> för Sven</span>');
    expect(html.indexOf('Erik Handläggare')).toBeLessThan(html.indexOf('>Deltagare</h3>'));
  });

  it('shows no chat switches to a non-moderator and one list in a regular meeting', () => {
    const html = renderToStaticMarkup(<ParticipantsPanel participants={people} isWebcast={false} moderator={false} ownConnectionId="c2" onToggleChat={() => {}} />);
    expect(html).not.toContain('Presentatörer');
    expect(html).not.toContain('Chatt på');
    expect(html).toContain('(du)');
  });

  it('shows each person’s assurance for screen readers, the hand queue in order to a moderator, and the own hand toggle', () => {
    const list = [
      entry('c1', 'Erik Handläggare', 'p1', { moderator: true, assurance: 'staff' }),
      entry('c2', 'Jonna S', 'p2', { assurance: 'eid', hand: 5 }),
      entry('c3', 'Vera', null, { assurance: 'anonymous', hand: 2 }),
    ];
    const html = renderToStaticMarkup(
      <ParticipantsPanel participants={list} isWebcast moderator ownConnectionId="c1" onToggleChat={() => {}} onRaiseHand={() => {}} onLowerHand={() => {}} />,
    );
    expect(html).toContain('<span class="visually-hidden">Inloggad som anställd</span>');
    expect(html).toContain('<span class="visually-hidden">Verifierad med e-legitimation</span>');
    expect(html).toContain('<span class="visually-hidden">Ej verifierad (besökare)</span>');
    expect(html).toContain('Uppräckta händer (2)');
    expect(html.indexOf('Sänk handen för Vera')).toBeLessThan(html.indexOf('Sänk handen för Jonna S'));
    expect(html).toContain('aria-pressed="false"');
    const viewer = renderToStaticMarkup(<ParticipantsPanel participants={list} isWebcast moderator={false} ownConnectionId="c3" onToggleChat={() => {}} onRaiseHand={() => {}} onLowerHand={() => {}} />);
    expect(viewer).not.toContain('Uppräckta händer');
    expect(viewer).toContain('aria-pressed="true">Sänk handen</button>');
  });
});
