import { describe, expect, it } from 'vitest';
import { safeReturnUrl } from './return-url.ts';

describe('safeReturnUrl', () => {
  it('keeps same-site paths with query and hash', () => {
    expect(safeReturnUrl('/meetings/abc/lobby?x=1#y')).toBe('/meetings/abc/lobby?x=1#y');
    expect(safeReturnUrl('/')).toBe('/');
  });
  it('falls back when absent', () => {
    expect(safeReturnUrl(undefined)).toBe('/meetings');
    expect(safeReturnUrl('')).toBe('/meetings');
  });
  it('refuses anything that could leave the site', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil.example', '\\\\evil', 'javascript:alert(1)', 'meetings', '/\tevil', '/%0a', ' /x']) {
      const result = safeReturnUrl(bad);
      if (result !== null) expect(new URL(result, 'http://same.invalid').origin).toBe('http://same.invalid');
    }
    expect(safeReturnUrl('https://evil.example/')).toBeNull();
    expect(safeReturnUrl('//evil.example')).toBeNull();
    expect(safeReturnUrl('/\\evil.example')).toBeNull();
    expect(safeReturnUrl('/\tevil')).toBeNull();
  });
  it('checks the normalised result: dot segments cannot make a protocol-relative URL', () => {
    for (const bad of ['/.//evil.example/x', '/././/evil.example', '/a/..//evil.example/', '/%2e//evil.example', '/.%2e//evil.example', '/./\\evil.example']) {
      expect(safeReturnUrl(bad)).toBeNull();
    }
    expect(safeReturnUrl('/meetings/./abc/../lobby')).toBe('/meetings/lobby');
  });
  it('does not return into the login routes', () => {
    expect(safeReturnUrl('/api/login/start')).toBe('/meetings');
    expect(safeReturnUrl('/idp/auth')).toBe('/meetings');
  });
});
