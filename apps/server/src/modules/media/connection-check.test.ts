import { describe, expect, it } from 'vitest';
import type { Membership, MeetingSummary, MemberRecord } from '../meetings/meeting-membership.ts';
import { mayReadConnectionChecks } from './connection-check.ts';

const meeting = { id: 'm' } as MeetingSummary;
const member = (afId: string | null): Membership => ({ kind: 'participant', meeting, participant: { afId } as MemberRecord });

describe('who sees the participants\' connection checks', () => {
  it('the meeting\'s staff participants only', () => {
    expect(mayReadConnectionChecks(member('erihan'), { kind: 'staff' })).toBe(true);
    expect(mayReadConnectionChecks(member(null), { kind: 'eid' })).toBe(false);
    expect(mayReadConnectionChecks(member('erihan'), { kind: 'eid' })).toBe(false);
    expect(mayReadConnectionChecks({ kind: 'visitor', meeting }, { kind: 'anonymous' })).toBe(false);
  });
});
