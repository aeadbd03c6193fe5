/**
 * Where a login may send the browser back to: only a path on this site. Absolute URLs, protocol-relative
 * `//evil`, backslash tricks (`/\evil`, which browsers read as `//evil`), paths that only normalise to `//evil`
 * and control characters are refused, so the login can never become an open redirect.
 */
export function safeReturnUrl(input: string | undefined, fallback = '/meetings'): string | null {
  if (input === undefined || input === '') return fallback;
  if (input.length > 2000) return null;
  if (!input.startsWith('/') || input.startsWith('//') || input.includes('\\')) return null;
  if (/[\u0000-\u001f\u007f]/.test(input)) return null;
  const base = 'http://same.invalid';
  let parsed: URL;
  try {
    parsed = new URL(input, base);
  } catch {
    return null;
  }
  if (parsed.origin !== base) return null;
  // Don't bounce back into the login machinery itself.
  if (parsed.pathname.startsWith('/api/') || parsed.pathname.startsWith('/idp')) return fallback;
  const result = parsed.pathname + parsed.search + parsed.hash;
  // The result is checked, not only the input: dot segments normalise away, so `/.//evil.example/` (a fine path
  // as typed) becomes `//evil.example/`, which a browser reads as another host.
  if (result.startsWith('//') || result.includes('\\') || new URL(result, base).origin !== base) return null;
  return result;
}
