import { describe, expect, it } from 'vitest';
import { mayLowerProtection, meetingEndToEnd } from './media-protection.ts';

describe('meetingEndToEnd', () => {
  it('is end to end while every browser encrypts, and for an empty meeting', () => {
    expect(meetingEndToEnd([])).toBe(true);
    expect(meetingEndToEnd([{ endToEnd: true }, { endToEnd: true }])).toBe(true);
  });

  it('is transit-only while one browser cannot encrypt', () => {
    expect(meetingEndToEnd([{ endToEnd: true }, { endToEnd: false }, { endToEnd: true }])).toBe(false);
  });

  it('takes a connection announced without the field (an older node) as encrypting', () => {
    expect(meetingEndToEnd([{ endToEnd: true }, {}])).toBe(true);
  });
});

describe('mayLowerProtection', () => {
  it('lets a signed-in booked participant\'s browser without encoded transforms in, never a webcast visitor\'s', () => {
    expect(mayLowerProtection({ kind: 'participant' }, { kind: 'eid' })).toBe(true);
    expect(mayLowerProtection({ kind: 'participant' }, { kind: 'staff' })).toBe(true);
    expect(mayLowerProtection({ kind: 'visitor' }, { kind: 'anonymous' })).toBe(false);
    expect(mayLowerProtection({ kind: 'visitor' }, { kind: 'eid' })).toBe(false);
    expect(mayLowerProtection({ kind: 'participant' }, { kind: 'anonymous' })).toBe(false);
  });
});
