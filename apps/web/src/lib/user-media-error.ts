/**
 * What a getUserMedia failure means for the person, from the error's name: the lobby (its device texts) and the
 * call (its error panel) read it here, so that both say "allow the camera" for the same refusals.
 * - 'denied': the browser or the person refused the site (the fix is in the address bar, for both devices);
 * - 'in-use': the device exists but could not be started (another application holds it, or the OS refused);
 * - 'unavailable': anything else (no such device, constraints no device meets, an unknown error).
 * Older Chrome versions used their own names before the standard ones; they are listed beside their successors.
 */
export type UserMediaFailure = 'denied' | 'in-use' | 'unavailable';

const DENIED = new Set([
  'NotAllowedError',
  'PermissionDeniedError', // Chrome < 53's NotAllowedError
  'PermissionDismissedError', // Chrome's prompt closed without an answer, before it became NotAllowedError
  'SecurityError', // media disabled for the document (Feature Policy, insecure context in old Firefox)
]);
const IN_USE = new Set([
  'NotReadableError',
  'TrackStartError', // Chrome < 53's NotReadableError
  'AbortError', // Firefox: the device could not be started for a reason other than the above
]);

export function userMediaFailure(error: unknown): UserMediaFailure {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : '';
  if (DENIED.has(name)) return 'denied';
  if (IN_USE.has(name)) return 'in-use';
  return 'unavailable';
}
