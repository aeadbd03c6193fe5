import { SIGNUP_CODE_PARAM, SIGNUP_TEXTS } from '@videomote/contract/signup';
import type { ApiError } from '../../lib/api-client.ts';
import { sv } from '../../i18n/catalogues/sv.ts';

export type LoginStep = { kind: 'register' } | { kind: 'navigate'; url: string };

/** The sign-up code travels on with the link it came by (the server refuses a registration without it). */
const autoQuery = (code: string | null) => `consent=true&invited=true${code ? `&${SIGNUP_CODE_PARAM}=${encodeURIComponent(code)}` : ''}`;

/** The page's own address with both boxes already ticked, which starts the registration by itself. */
export const autoSignupPath = (meetingId: string, code: string | null) => `/meetings/${encodeURIComponent(meetingId)}/signup?${autoQuery(code)}`;

/**
 * The signup login step (booking spec §2): on a local development host, sign up at once (after logging in if
 * needed); elsewhere go to the configured sign-up host with consent=true&invited=true, where the e-ID login
 * happens and the registration then starts automatically.
 */
export function signupLoginStep(o: {
  environment: string;
  signedIn: boolean;
  meetingId: string;
  /** The sign-up code of the link the page was opened by. */
  code: string | null;
  selfRegistrationBaseUrl: string;
  loginUrl: (returnTo: string) => string;
}): LoginStep {
  if (o.environment === 'local') {
    return o.signedIn ? { kind: 'register' } : { kind: 'navigate', url: o.loginUrl(autoSignupPath(o.meetingId, o.code)) };
  }
  const base = o.selfRegistrationBaseUrl.replace(/\/$/, '');
  return { kind: 'navigate', url: `${base}/${encodeURIComponent(o.meetingId)}/signup?${autoQuery(o.code)}` };
}

/** Spec §8: the server's messages, or its single message, or the general text. */
export function signupErrorMessages(error: unknown): string[] {
  const e = error as Partial<ApiError> | null;
  const listed = (e?.errors ?? []).map((i) => i.message).filter(Boolean);
  if (listed.length) return [...new Set(listed)];
  if (e?.message) return [e.message];
  return [SIGNUP_TEXTS.errorFallback];
}

const H = sv.signup.headings;
export const SIGNUP_HEADINGS = {
  meeting: { unregistered: H.meetingUnregistered, registered: H.meetingRegistered },
  webcast: { unregistered: H.webcastUnregistered, registered: H.webcastRegistered },
  unknown: H.unknown,
} as const;

export function signupHeading(type: 0 | 1 | null, registered: boolean): string {
  if (type === null) return SIGNUP_HEADINGS.unknown;
  const set = type === 1 ? SIGNUP_HEADINGS.webcast : SIGNUP_HEADINGS.meeting;
  return registered ? set.registered : set.unregistered;
}
