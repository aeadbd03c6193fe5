import { describe, expect, it } from 'vitest';
import { userMediaFailure, type UserMediaFailure } from './user-media-error.ts';

// Every name getUserMedia rejects with in the Media Capture spec, plus the legacy Chrome names still met on old
// installations, and what each means for the person.
const EXPECTED: Record<string, UserMediaFailure> = {
  NotAllowedError: 'denied',
  SecurityError: 'denied',
  PermissionDeniedError: 'denied',
  PermissionDismissedError: 'denied',
  NotReadableError: 'in-use',
  TrackStartError: 'in-use',
  AbortError: 'in-use',
  NotFoundError: 'unavailable',
  DevicesNotFoundError: 'unavailable',
  OverconstrainedError: 'unavailable',
  ConstraintNotSatisfiedError: 'unavailable',
  InvalidStateError: 'unavailable',
  TypeError: 'unavailable',
};

describe('userMediaFailure', () => {
  it('reads every getUserMedia error name, standard and legacy Chrome', () => {
    for (const [name, failure] of Object.entries(EXPECTED)) {
      expect([name, userMediaFailure(new DOMException('x', name))]).toEqual([name, failure]);
      // Some browsers (and the legacy names) reject with a plain object or Error that carries only a name.
      expect([name, userMediaFailure({ name })]).toEqual([name, failure]);
    }
  });

  it('calls anything without a known name unavailable (a bare string is not an error with that name)', () => {
    for (const error of [new TypeError('constraints'), new Error('x'), new DOMException('x', 'SomethingNewError'), 'NotAllowedError', null, undefined, {}, { name: 42 }]) {
      expect(userMediaFailure(error)).toBe('unavailable');
    }
  });
});
