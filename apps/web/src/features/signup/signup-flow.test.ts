import { describe, expect, it } from 'vitest';
import { isRegistered } from '@videomote/contract/signup';
import { ApiError } from '../../lib/api-client.ts';
import { signupErrorMessages, signupHeading, signupLoginStep } from './signup-flow.ts';

const loginUrl = (r: string) => `/api/login/start?returnUrl=${encodeURIComponent(r)}`;
const id = '9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11';
const CODE = 'q1w2e3r4t5y6u7i8o9p0aZ';

describe('signupLoginStep', () => {
  it('signs up directly on a local development host when logged in', () => {
    expect(signupLoginStep({ environment: 'local', signedIn: true, meetingId: id, code: CODE, selfRegistrationBaseUrl: 'x', loginUrl })).toEqual({ kind: 'register' });
  });
  it('logs in first on a local host, coming back with both boxes ticked and the link\'s sign-up code', () => {
    expect(signupLoginStep({ environment: 'local', signedIn: false, meetingId: id, code: CODE, selfRegistrationBaseUrl: 'x', loginUrl })).toEqual({
      kind: 'navigate',
      url: `/api/login/start?returnUrl=${encodeURIComponent(`/meetings/${id}/signup?consent=true&invited=true&code=${CODE}`)}`,
    });
  });
  it("goes to the configured host's sign-up page elsewhere, logged in or not", () => {
    for (const signedIn of [true, false]) {
      expect(signupLoginStep({ environment: 'production', signedIn, meetingId: id, code: CODE, selfRegistrationBaseUrl: 'https://video.example.se/meetings/', loginUrl })).toEqual({
        kind: 'navigate',
        url: `https://video.example.se/meetings/${id}/signup?consent=true&invited=true&code=${CODE}`,
      });
    }
  });
});

describe('isRegistered (spec §3)', () => {
  it('is true for a Meeting above 0 and a Webcast above 3 self-registrations', () => {
    expect(isRegistered({ type: 0, selfRegistrations: 0 })).toBe(false);
    expect(isRegistered({ type: 0, selfRegistrations: 1 })).toBe(true);
    expect(isRegistered({ type: 1, selfRegistrations: 3 })).toBe(false);
    expect(isRegistered({ type: 1, selfRegistrations: 4 })).toBe(true);
  });
  it('chooses the heading by type and variant', () => {
    expect(signupHeading(0, false)).toBe('Registrera dig som deltagare i mötet');
    expect(signupHeading(0, true)).toBe('Registrerad som deltagare i mötet');
    expect(signupHeading(1, false)).toBe('Välkommen att registrera dig som presentatör');
    expect(signupHeading(1, true)).toBe('Välkommen som presentatör');
  });
});

describe('signupErrorMessages (spec §8)', () => {
  it("lists the server's messages, else its single message, else the general text", () => {
    expect(signupErrorMessages(new ApiError(409, 'Conflict', 'x', [{ fields: ['meetingId'], message: 'Full' }]))).toEqual(['Full']);
    expect(signupErrorMessages(new ApiError(403, 'Forbidden', 'Stängd'))).toEqual(['Stängd']);
    expect(signupErrorMessages(null)).toEqual(['Något gick fel vid registreringen.']);
  });
});
