import type { CaptionLine } from '@videomote/contract/chat';

/**
 * The captions of a call as the meeting screen shows them: a viewer's choices (on or off, larger text), which lines
 * are on screen, what a screen reader hears, and how the text interpreter's typing becomes caption frames. Pure or
 * clock-injected, so the rules are tested without a browser.
 */

/** The interpreter's growing line goes out at most this often: under 0.5 s from key to screen with room to spare. */
export const CAPTION_SEND_MS = 100;
/** Lines on screen at once: the one being typed and the one before, as broadcast captions show them. */
export const CAPTION_LINES_SHOWN = 2;

export interface CaptionPrefs {
  on: boolean;
  large: boolean;
}

export const CAPTION_PREFS_KEY = 'videomote.captions';
export const DEFAULT_CAPTION_PREFS: CaptionPrefs = { on: true, large: false };

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

/** The viewer's choices as saved in this browser; anything unreadable gives the defaults (captions on). */
export function loadCaptionPrefs(storage: Storage | null): CaptionPrefs {
  try {
    const v = JSON.parse(storage?.getItem(CAPTION_PREFS_KEY) ?? 'null') as Partial<CaptionPrefs> | null;
    if (!v || typeof v !== 'object') return DEFAULT_CAPTION_PREFS;
    return { on: typeof v.on === 'boolean' ? v.on : DEFAULT_CAPTION_PREFS.on, large: typeof v.large === 'boolean' ? v.large : DEFAULT_CAPTION_PREFS.large };
  } catch {
    return DEFAULT_CAPTION_PREFS;
  }
}

export function saveCaptionPrefs(storage: Storage | null, prefs: CaptionPrefs): void {
  try {
    storage?.setItem(CAPTION_PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Private mode or a full storage: the choice holds for this visit only.
  }
}

/** The lines on screen: the latest ones that say something (an erased line disappears). */
export function shownCaptions(lines: readonly CaptionLine[], max = CAPTION_LINES_SHOWN): CaptionLine[] {
  return lines.filter((l) => l.text.trim()).slice(-max);
}

/**
 * What the polite live region says: the latest finished line. Reading every keystroke's version of a growing line
 * aloud would drown the call; a finished line is read once, whole.
 */
export function lineToAnnounce(lines: readonly CaptionLine[]): CaptionLine | null {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.final && lines[i]!.text.trim()) return lines[i]!;
  return null;
}

/** Whether the meeting screen offers captions at all: a text interpreter is connected, or captions have come. */
export const captionsAvailable = (roles: readonly (string | null | undefined)[], lines: readonly CaptionLine[]) =>
  roles.includes('TextInterpreter') || lines.length > 0;

export type CaptionSend = (lineId: string, text: string, final: boolean) => void;

interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

let lineCount = 0;
const newLineId = () => `line-${Date.now().toString(36)}-${++lineCount}`;

/**
 * Turns the text interpreter's typing into caption frames: the whole line so far, at most every CAPTION_SEND_MS
 * while typing (a throttle, not a debounce: continuous typing must still reach the others within half a second),
 * and at once, marked done, on Enter; the next line gets a new id.
 */
export class CaptionComposer {
  private lineId: string;
  private text = '';
  private sent = '';
  private timer: unknown = null;

  constructor(
    private readonly send: CaptionSend,
    private readonly timers: Timers = browserTimers,
    private readonly nextId: () => string = newLineId,
  ) {
    this.lineId = nextId();
  }

  /** The field's text changed. */
  input(text: string): void {
    this.text = text;
    if (this.timer !== null) return;
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.flush();
    }, CAPTION_SEND_MS);
  }

  /** Enter: the line is done and goes out now; an empty line is not sent. Answers whether a line was finished. */
  commit(): boolean {
    this.cancel();
    if (!this.text.trim()) {
      // An erased line the others still see is cleared for them.
      if (this.sent) this.send(this.lineId, '', false);
      this.text = this.sent = '';
      return false;
    }
    this.send(this.lineId, this.text, true);
    this.lineId = this.nextId();
    this.text = this.sent = '';
    return true;
  }

  /** Leaving the call: a pending update is dropped (the chat socket is closing anyway). */
  cancel(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  private flush(): void {
    if (this.text === this.sent) return;
    this.sent = this.text;
    this.send(this.lineId, this.text, false);
  }
}
