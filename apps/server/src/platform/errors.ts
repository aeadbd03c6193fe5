import type { ErrorCode, ErrorItem } from '@videomote/contract/errors';

const statusByCode: Record<ErrorCode, number> = {
  ValidationError: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Gone: 410,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
};

/** A domain error with a code; the one error handler in app.ts maps it to a status and the spec's body. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: ErrorItem[],
  ) {
    super(message);
    this.name = code;
  }
  get statusCode(): number {
    return statusByCode[this.code];
  }
}

export const validationError = (errors: ErrorItem[], message = errors[0]?.message ?? 'Felaktiga uppgifter') =>
  new AppError('ValidationError', message, errors);
export const unauthorized = (message = 'Du är inte inloggad') => new AppError('Unauthorized', message);
export const forbidden = (message = 'Du har inte behörighet till detta') => new AppError('Forbidden', message);
export const notFound = (message = 'Hittades inte') => new AppError('NotFound', message);
export const conflict = (message: string) => new AppError('Conflict', message);
/** A service we depend on (the staff directory) cannot be reached; the message says what the user can still do. */
export const serviceUnavailable = (message: string, errors?: ErrorItem[]) => new AppError('ServiceUnavailable', message, errors);
