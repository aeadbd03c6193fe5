import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every environment variable the server reads must be documented in docs/configuration.md, so an operator never has
// to read the source to find a setting. Reading is found in the text of the server's source files (tests excluded).
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(SRC, '..', '..', '..', 'docs', 'configuration.md');

const ACCESSOR = /(?:process\.env|\benv)\??\.([A-Z][A-Z0-9_]*)\b|\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g;
const TESTS_HEADING = '## Tests and benchmarks only';
const READS_ENV = /process\.env|\bProcessEnv\b/;
/** A quoted ALL_CAPS name with an underscore, e.g. the name handed to `int('SESSION_MINUTES', env.SESSION_MINUTES, …)`. */
const NAME_LITERAL = /['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]/g;

/**
 * The variable names one source file reads: `process.env.X`, `env.X`, `env['X']`, and, in a file that takes the
 * environment at all, every quoted ALL_CAPS_NAME (names looked up through a helper, as the LDAP attribute settings are).
 */
function envNamesRead(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(ACCESSOR)) names.add(m[1] ?? m[2]!);
  if (READS_ENV.test(source)) for (const m of source.matchAll(NAME_LITERAL)) names.add(m[1]!);
  return names;
}

/** The names the documentation gives in backticks in the first cell of a table row. */
function documentedNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (first) for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the environment variables in docs/configuration.md', () => {
  it('finds names read directly, by index and through a helper, and only in a table row\'s first cell', () => {
    const source = "const a = process.env.JANUS_BIN; const b = env?.PORT; const c = env['X_Y'];\nattribute('LDAP_ATTR_MAIL', 'mail'); fn(env: NodeJS.ProcessEnv)";
    expect([...envNamesRead(source)].sort()).toEqual(['JANUS_BIN', 'LDAP_ATTR_MAIL', 'PORT', 'X_Y']);
    expect([...envNamesRead("const code = 'BLUR_FAILED';")]).toEqual([]);
    const doc = '| `PORT` | `3000` | port |\n| `A_B`, `C_D` | `LOG_LEVEL` | x |\nSee `HOST` in the text.';
    expect([...documentedNames(doc)].sort()).toEqual(['A_B', 'C_D', 'PORT']);
  });

  it('documents every variable the server reads, and no server variable it no longer reads', () => {
    const doc = readFileSync(DOC, 'utf8');
    const documented = documentedNames(doc);
    const missing: string[] = [];
    const read = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const name of envNamesRead(readFileSync(file, 'utf8'))) {
        read.add(name);
        if (!documented.has(name)) missing.push(`${name} (${relative(SRC, file)})`);
      }
    }
    // The scan must see the configuration at all: the settings read through config.ts's helpers among them.
    expect(read.size).toBeGreaterThan(50);
    expect(missing, 'read by the server but not in a table of docs/configuration.md').toEqual([]);
    // The tables above "Tests and benchmarks only" are the server's own: a setting taken out of the code goes from there too.
    const serverPart = doc.split(TESTS_HEADING)[0]!;
    expect(doc).toContain(TESTS_HEADING);
    expect([...documentedNames(serverPart)].filter((n) => !read.has(n)), 'documented as a server setting but not read').toEqual([]);
  });
});
