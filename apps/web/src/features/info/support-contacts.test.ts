import { describe, expect, it } from 'vitest';
import type { UserData } from '@videomote/contract/identity';
import { SUPPORT, supportContactsFor } from './support-contacts.ts';

const user = (over: Partial<UserData>): UserData => ({
  ciamGivenName: 'A', ciamFamilyName: 'B', ciamSub: 's', afRole: [], features: [], userLevel: 'None', isAdmin: false,
  identityKind: 'eid', afId: null, meetingId: null, ...over,
});

describe('supportContactsFor', () => {
  it('gives employees the internal desk, the job seekers line and the fault report', () => {
    const c = supportContactsFor(user({ identityKind: 'staff', userLevel: 'Intern', afRole: ['VIDMedarbetare'] }));
    expect(c.map((x) => x.label)).toEqual([SUPPORT.internalServiceDesk.label, 'Arbetssökande ringer', 'Gör en felanmälan']);
  });
  it('gives KA users the external desk and the fault report', () => {
    const c = supportContactsFor(user({ userLevel: 'KA' }));
    expect(c.map((x) => x.label)).toEqual([SUPPORT.externalServiceDesk.label, 'Gör en felanmälan']);
  });
  it('gives external users, MSFA users and visitors phone and e-mail support', () => {
    for (const u of [user({ afRole: ['Participant'] }), user({ userLevel: 'MSFA' }), null]) {
      const c = supportContactsFor(u);
      expect(c[0]?.phone).toBe(SUPPORT.externalServiceDesk.phone);
      expect(c[1]?.email).toBe(SUPPORT.email);
    }
  });
});
