import { describe, expect, it } from 'vitest';
import { keyReplacement } from './media-key-rules.ts';

describe('keyReplacement', () => {
  it('keeps the key while the meeting keeps its type and every holder is still there', () => {
    expect(keyReplacement({ meetingType: 0 }, { type: 0 }, 0)).toBeNull();
    expect(keyReplacement({ meetingType: 1 }, { type: 1 }, 0)).toBeNull();
  });

  it('replaces it when the meeting type changed either way, or a holder was removed', () => {
    expect(keyReplacement({ meetingType: 1 }, { type: 0 }, 0)).toBe('type-changed');
    expect(keyReplacement({ meetingType: 0 }, { type: 1 }, 2)).toBe('type-changed');
    expect(keyReplacement({ meetingType: 0 }, { type: 0 }, 1)).toBe('holder-removed');
  });
});
