import { describe, expect, it } from 'vitest';
import type { CaptionLine } from '@videomote/contract/chat';
import {
  CAPTION_PREFS_KEY,
  CAPTION_SEND_MS,
  CaptionComposer,
  captionsAvailable,
  lineToAnnounce,
  loadCaptionPrefs,
  saveCaptionPrefs,
  shownCaptions,
} from './captions.ts';

const line = (id: string, text: string, final = false): CaptionLine => ({ id, text, final, fromId: 't', fromName: 'Sara', timestamp: '2026-11-25T10:00:00Z' });

/** A hand-driven clock: timers fire only when the test advances time. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      set: (fn: () => void, ms: number) => (pending.set(++seq, { at: now + ms, fn }), seq),
      clear: (h: unknown) => void pending.delete(h as number),
    },
    advance(ms: number) {
      now += ms;
      for (const [h, t] of [...pending]) {
        if (t.at > now) continue;
        pending.delete(h);
        t.fn();
      }
    },
  };
}

function composer() {
  const clock = fakeTimers();
  const sent: [string, string, boolean][] = [];
  let n = 0;
  const c = new CaptionComposer((id, text, final) => void sent.push([id, text, final]), clock.timers, () => `l${++n}`);
  return { c, sent, clock };
}

describe('CaptionComposer', () => {
  it('sends the whole line so far at most every CAPTION_SEND_MS while typing, never later than that after a key', () => {
    const { c, sent, clock } = composer();
    c.input('H');
    c.input('He');
    expect(sent).toEqual([]);
    clock.advance(CAPTION_SEND_MS);
    expect(sent).toEqual([['l1', 'He', false]]);
    // Typing on without a pause still goes out every CAPTION_SEND_MS (a debounce would hold it back).
    for (const [i, text] of ['Hej', 'Hej o', 'Hej oc', 'Hej och'].entries()) {
      c.input(text);
      clock.advance(CAPTION_SEND_MS / 2);
      if (i % 2 === 1) expect(sent.at(-1)).toEqual(['l1', text, false]);
    }
    clock.advance(CAPTION_SEND_MS);
    expect(sent.length).toBe(3);
  });

  it('finishes the line at once on Enter and starts the next under a new id; an empty Enter sends nothing', () => {
    const { c, sent, clock } = composer();
    c.input('Hej och välkommen.');
    expect(c.commit()).toBe(true);
    expect(sent).toEqual([['l1', 'Hej och välkommen.', true]]);
    clock.advance(CAPTION_SEND_MS);
    expect(sent.length).toBe(1);
    expect(c.commit()).toBe(false);
    c.input('Nästa');
    clock.advance(CAPTION_SEND_MS);
    expect(sent.at(-1)).toEqual(['l2', 'Nästa', false]);
    // Erased and Enter: the others' half line is cleared.
    c.input('');
    expect(c.commit()).toBe(false);
    expect(sent.at(-1)).toEqual(['l2', '', false]);
  });
});

describe('caption rules', () => {
  it('shows the latest two lines that say something, and reads out only the latest finished line', () => {
    const lines = [line('a', 'Ett.', true), line('b', 'Två.', true), line('c', '   '), line('d', 'Tre')];
    expect(shownCaptions(lines).map((l) => l.text)).toEqual(['Två.', 'Tre']);
    expect(lineToAnnounce(lines)?.text).toBe('Två.');
    expect(lineToAnnounce([line('x', 'pågår')])).toBeNull();
  });

  it('offers captions when a text interpreter is connected or captions have come', () => {
    expect(captionsAvailable(['JobSeeker', null], [])).toBe(false);
    expect(captionsAvailable(['JobSeeker', 'TextInterpreter'], [])).toBe(true);
    expect(captionsAvailable([], [line('a', 'x')])).toBe(true);
  });

  it('remembers the viewer choices and falls back to captions on, normal size, when nothing usable is saved', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadCaptionPrefs(storage)).toEqual({ on: true, large: false });
    saveCaptionPrefs(storage, { on: false, large: true });
    expect(loadCaptionPrefs(storage)).toEqual({ on: false, large: true });
    store.set(CAPTION_PREFS_KEY, '{bad');
    expect(loadCaptionPrefs(storage)).toEqual({ on: true, large: false });
    store.set(CAPTION_PREFS_KEY, '{"on":"yes"}');
    expect(loadCaptionPrefs(storage)).toEqual({ on: true, large: false });
    expect(loadCaptionPrefs(null)).toEqual({ on: true, large: false });
  });
});
