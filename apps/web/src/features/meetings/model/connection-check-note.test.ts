import { describe, expect, it } from 'vitest';
import { connectionCheckNote, needsAttention } from './connection-check-note.ts';

describe('the meeting card\'s note of a participant\'s connection check', () => {
  it('says the outcome and when, in Stockholm time, the date only for another day', () => {
    const now = new Date('2026-11-20T12:00:00Z');
    expect(connectionCheckNote({ participantId: 'p', result: 'turn', checkedAt: '2026-11-20T08:05:00.000Z' }, now)).toBe(
      'Anslutningstest 09:05: ljud och bild gick bara fram via en omväg (TURN-server)',
    );
    expect(connectionCheckNote({ participantId: 'p', result: 'failed', checkedAt: '2026-11-19T15:30:00.000Z' }, now)).toBe('Anslutningstest 2026-11-19 16:30: ljud och bild kom inte fram');
    expect(connectionCheckNote({ participantId: 'p', result: 'direct', checkedAt: '2026-11-20T11:59:00.000Z' }, now)).toBe('Anslutningstest 12:59: ljud och bild gick fram direkt');
  });

  it('marks TURN and failures', () => {
    expect(needsAttention({ participantId: 'p', result: 'direct', checkedAt: '' })).toBe(false);
    expect(needsAttention({ participantId: 'p', result: 'turn', checkedAt: '' })).toBe(true);
    expect(needsAttention({ participantId: 'p', result: 'failed', checkedAt: '' })).toBe(true);
  });
});
