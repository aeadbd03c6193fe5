import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sv } from '../../../i18n/catalogues/sv.ts';
import { CallModel } from './call-model.ts';
import { CALL_ERROR_KEYS, ERROR_TEXTS } from './texts.ts';

// Spec §8: the error panel shows an error on a real host only if its key is in the known list. A key raised but
// not known is a failure nobody in production sees (pressing 'Dela skärm' during another's share once did nothing
// visible so). Every code the call can raise is walked here.
const conferenceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe('the errors the call can raise', () => {
  it('each is known, with its Swedish text, and shows as a known (yellow) banner', () => {
    expect(CALL_ERROR_KEYS.length).toBeGreaterThan(0);
    for (const key of CALL_ERROR_KEYS) {
      const m = new CallModel();
      m.addError(key);
      const entry = m.getState().errors[0]!;
      expect(entry, key).toMatchObject({ key, known: true, visible: true, message: sv.conference.errors[key] });
      expect(ERROR_TEXTS[key], key).toBe(sv.conference.errors[key]);
      // Swedish: none of the browser's or the library's English leaks through as a text.
      expect(entry.message, key).toMatch(/[a-zåäö]/);
      expect(entry.message, key).not.toMatch(/\b(failed|error|the)\b/i);
    }
  });

  it('every addError in the conference code names one of them, literally (so this list is every code raised)', () => {
    const raised = new Set<string>();
    for (const file of sourcesUnder(conferenceDir)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const call of text.matchAll(/\.addError\(\s*((?:[^,()]|\([^()]*\))*)/g)) {
        const arg = call[1]!.trim();
        // A computed key hides what can be raised: only literals and the two-way choice of the media errors pass.
        // (a literal compared with === is a condition, not a key)
        const keys = [...arg.matchAll(/(===\s*)?'([^']*)'/g)].filter((x) => !x[1]).map((x) => x[2]!);
        expect(keys.length, `${path.relative(conferenceDir, file)}: addError(${arg})`).toBeGreaterThan(0);
        for (const k of keys) raised.add(k);
      }
    }
    expect([...raised].filter((k) => !(CALL_ERROR_KEYS as string[]).includes(k))).toEqual([]);
    // The takeover's old "busy" answer is gone: whoever may share is asked instead (screen-share.ts).
    expect(raised.has('SCREEN_SHARE_BUSY')).toBe(false);
    expect(raised.has('OT_USER_MEDIA_ACCESS_DENIED')).toBe(true);
  });
});
