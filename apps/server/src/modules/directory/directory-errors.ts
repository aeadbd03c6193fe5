import { AppError, serviceUnavailable } from '../../platform/errors.ts';

/** Shown in place by the booking form's employee search, which handles its own errors (booking spec §8). */
export const DIRECTORY_UNAVAILABLE = 'Personalkatalogen går inte att nå just nu. Försök igen om en stund eller lägg till kollegan senare.';

/** The directory did not answer: a 503 in the spec's error shape, naming the field that asked. */
export const directoryUnavailable = (field = 'query') => serviceUnavailable(DIRECTORY_UNAVAILABLE, [{ fields: [field], message: DIRECTORY_UNAVAILABLE }]);

export const isDirectoryUnavailable = (err: unknown): boolean => err instanceof AppError && err.code === 'ServiceUnavailable' && err.message === DIRECTORY_UNAVAILABLE;
