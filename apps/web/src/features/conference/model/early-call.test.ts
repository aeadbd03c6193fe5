import { describe, expect, it } from 'vitest';
import { earlyCallAbandoned, UNTAKEN_FOR_MS } from './early-call.ts';

describe('earlyCallAbandoned', () => {
  const id = '3f0c2a9e-1b7d-4c55-9a51-0d6f3e2b8c41';

  it('keeps the call while the browser is on its meeting screen (with or without a trailing slash)', () => {
    expect(earlyCallAbandoned(`/meetings/${id}/conference`, id, 1_000)).toBe(false);
    expect(earlyCallAbandoned(`/meetings/${id}/conference/`, id, 1_000)).toBe(false);
  });

  it('closes it once the browser is elsewhere: another page, another meeting, the webcast name form', () => {
    expect(earlyCallAbandoned('/meetings', id, 1_000)).toBe(true);
    expect(earlyCallAbandoned(`/meetings/${id}/lobby`, id, 1_000)).toBe(true);
    expect(earlyCallAbandoned('/meetings/another/conference', id, 1_000)).toBe(true);
    expect(earlyCallAbandoned(`/meetings/${id}/conference/publicaccess`, id, 1_000)).toBe(true);
  });

  it('closes it after waiting too long even on its screen', () => {
    expect(earlyCallAbandoned(`/meetings/${id}/conference`, id, UNTAKEN_FOR_MS - 1)).toBe(false);
    expect(earlyCallAbandoned(`/meetings/${id}/conference`, id, UNTAKEN_FOR_MS)).toBe(true);
  });
});
