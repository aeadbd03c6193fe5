import type { ErrorBody, ErrorItem } from '@videomote/contract/errors';
import { readCookie } from './cookies.ts';

/** A failed API call: the spec's name, message and (for create/update) the field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    override readonly name: string,
    message: string,
    readonly errors: ErrorItem[] = [],
  ) {
    super(message);
  }
}

type ErrorListener = (error: ApiError, url: string) => void;
const errorListeners = new Set<ErrorListener>();

/** The shell listens here to send the user to /error (booking spec §8). */
export function onApiError(listener: ErrorListener): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

// Spec §8: these lookups handle their own failures in place instead of leaving the page.
const handlesOwnErrors = (url: string) => url.includes('api/employee/') || url.includes('api/meeting/getidbyroomid');

let antiforgery: Promise<void> | null = null;
/** Called once at start-up (spec §7); mutating calls wait for it so the XSRF cookie exists. */
export function ensureAntiforgery(): Promise<void> {
  antiforgery ??= fetch('/api/getantiforgerydata', { credentials: 'same-origin' }).then(() => undefined);
  return antiforgery;
}

/**
 * Read once per page: the server sets the cookie with the page itself, and each cookie read is a synchronous call to
 * another browser process; one per API call showed in the main thread's profile of /meetings under Lighthouse
 * (docs/benchmarks-lighthouse.md).
 */
let base: string | null = null;
function apiBase(): string {
  if (base === null) {
    const read = readCookie('api-endpoint') ?? '/';
    base = read.endsWith('/') ? read : `${read}/`;
  }
  return base;
}

export interface RequestOptions {
  /** Don't send the user to /error on failure: the caller shows the error in place. */
  quiet?: boolean;
  signal?: AbortSignal;
}

/** Calls `api/...`, wraps the body in `{ data }`, unwraps the answer's `data`, and turns failures into ApiError. */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const url = apiBase() + path.replace(/^\//, '');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') {
    // The server keeps a token its cookie already holds, so with the cookie there (any visit after the first) the
    // call need not wait for the start-up request: one round trip less before, say, the meeting's media token.
    // (Each cookie read is a synchronous call to another browser process: read once when it is there.)
    let xsrf = readCookie('XSRF-TOKEN');
    if (!xsrf) {
      await ensureAntiforgery();
      xsrf = readCookie('XSRF-TOKEN');
    }
    headers['x-xsrf-token'] = xsrf ?? '';
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify({ data: body }),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NetworkError', 'Det går inte att nå tjänsten just nu. Kontrollera din uppkoppling och försök igen.');
  }
  const text = await response.text();
  const json = text ? safeJson(text) : null;
  if (!response.ok) {
    const err = (json ?? {}) as Partial<ErrorBody>;
    const error = new ApiError(response.status, err.name ?? 'Error', err.message ?? 'Något gick fel', err.errors ?? []);
    if (!options.quiet && !handlesOwnErrors(url)) for (const l of errorListeners) l(error, url);
    throw error;
  }
  return (json as { data: T } | null)?.data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
