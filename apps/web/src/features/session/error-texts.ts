import { sv } from '../../i18n/catalogues/sv.ts';

export interface ErrorText {
  kind: 'unauthorized' | 'forbidden' | 'notFound' | 'gone' | 'gatewayTimeout' | 'internal';
  heading: string;
  body: string;
}

const E = sv.session.errors;

/** Booking spec §8: 401, 403, 404, 410 and 504 each have their page; 500 and all others the internal error. */
export function errorTextFor(status: number): ErrorText {
  switch (status) {
    case 401:
      return { kind: 'unauthorized', ...E.unauthorized };
    case 403:
      return { kind: 'forbidden', ...E.forbidden };
    case 404:
      return { kind: 'notFound', ...E.notFound };
    case 410:
      return { kind: 'gone', ...E.gone };
    case 504:
      return { kind: 'gatewayTimeout', ...E.gatewayTimeout };
    default:
      return { kind: 'internal', ...E.internal };
  }
}
