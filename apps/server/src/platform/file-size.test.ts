import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A production file over MAX_LINES is a sign that it does several jobs; the next engineer should find it split along
// its seams, or told at its top why it is one piece. Tests, test support and the language catalogues are not counted.
const APPS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const REPO = join(APPS, '..');
const MAX_LINES = 400;
/** The reason a long file gives, in a comment among its first lines: `// Long on purpose: <why, in a sentence>`. */
const REASON = /^\s*(?:\/\/|\/\*+|\*)\s*Long on purpose: \S.{20,}/;
const REASON_WITHIN_LINES = 5;

const isProduction = (path: string) =>
  /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.includes('/i18n/catalogues/') && !path.includes('/testing/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p);
    return isProduction(p) ? [p] : [];
  });
}

/** The file's line count when it is over the limit without a reason at its top; null when it is fine. */
function unexplainedLength(source: string): number | null {
  const lines = source.split('\n');
  const count = source.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count <= MAX_LINES) return null;
  return lines.slice(0, REASON_WITHIN_LINES).some((l) => REASON.test(l)) ? null : count;
}

describe('file sizes under apps/', () => {
  it(`accepts a long file only with a reason at its top, and counts no test or catalogue`, () => {
    const short = 'const a = 1;\n';
    const long = 'x;\n'.repeat(MAX_LINES + 1);
    expect(unexplainedLength(short)).toBeNull();
    expect(unexplainedLength('x;\n'.repeat(MAX_LINES))).toBeNull();
    expect(unexplainedLength(long)).toBe(MAX_LINES + 1);
    expect(unexplainedLength(`// Long on purpose: one reading of the environment, checked in one pass.\n${long}`)).toBeNull();
    expect(unexplainedLength(`/**\n * Long on purpose: the whole policy at the trust boundary in one switch.\n */\n${long}`)).toBeNull();
    // A marker without a reason, or one buried below the top, does not count.
    expect(unexplainedLength(`// Long on purpose:\n${long}`)).toBe(MAX_LINES + 2);
    expect(unexplainedLength(`${'x;\n'.repeat(10)}// Long on purpose: one reading of the environment, checked in one pass.\n${long}`)).not.toBeNull();
    expect(isProduction('/a/src/x.test.ts') || isProduction('/a/src/i18n/catalogues/sv.ts') || isProduction('/a/src/testing/test-app.ts')).toBe(false);
    expect(isProduction('/a/src/features/x/y.tsx')).toBe(true);
  });

  it(`finds no production file over ${MAX_LINES} lines without a written reason`, () => {
    const offenders = sourceFiles(APPS)
      .map((file) => ({ file: relative(REPO, file), lines: unexplainedLength(readFileSync(file, 'utf8')) }))
      .filter((f) => f.lines !== null)
      .map((f) => `${f.file} (${f.lines} lines): split it along its seams, or start it with "// Long on purpose: <why>"`);
    expect(offenders).toEqual([]);
  });
});
