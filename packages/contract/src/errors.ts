import { Type, type Static } from 'typebox';

/**
 * The spec's error body (booking spec §8): failed calls carry a name and a message; create and update also carry
 * `errors`, each naming the form fields it concerns (the first is the one to focus) and a Swedish message.
 */
export const ErrorItem = Type.Object({
  fields: Type.Array(Type.String()),
  message: Type.String(),
});
export type ErrorItem = Static<typeof ErrorItem>;

export const ErrorBody = Type.Object({
  name: Type.String(),
  message: Type.String(),
  statusCode: Type.Integer(),
  errors: Type.Optional(Type.Array(ErrorItem)),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const ErrorCodes = [
  'ValidationError',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'Conflict',
  'Gone',
  'TooManyRequests',
  'InternalError',
  'ServiceUnavailable',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];
