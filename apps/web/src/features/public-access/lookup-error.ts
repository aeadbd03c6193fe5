import {
  PUBLIC_ACCESS_FALLBACK_MESSAGE,
  PUBLIC_ACCESS_FIELD_TEXTS,
  type PublicAccessField,
} from '@videomote/contract/public-access';
import type { ApiError } from '../../lib/api-client.ts';

export interface LookupError {
  field: PublicAccessField;
  message: string;
}

const isField = (f: unknown): f is PublicAccessField => typeof f === 'string' && f in PUBLIC_ACCESS_FIELD_TEXTS;

/** Spec §8: the field and message of the server's first error; otherwise roomId with the general advice. */
export function lookupError(error: unknown): LookupError {
  const first = (error as Partial<ApiError> | null)?.errors?.[0];
  if (first && isField(first.fields[0])) return { field: first.fields[0], message: first.message };
  return { field: 'roomId', message: PUBLIC_ACCESS_FALLBACK_MESSAGE };
}

export const fieldText = (field: PublicAccessField) => PUBLIC_ACCESS_FIELD_TEXTS[field];
