import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from './config.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-datadir-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every file and folder under `root` with a permission bit for group or others. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const mode = fs.lstatSync(p).mode;
    if (mode & 0o077) found.push(`${path.relative(dir, p) || '.'} ${(mode & 0o777).toString(8)}`);
    if (fs.lstatSync(p).isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(root);
  return found;
}

describe('DATA_DIR', () => {
  it('is made private at start whatever existed, and what the embedded database writes stays private', async () => {
    // What an older version (or a careless restore) left: a world-readable folder and files others may write.
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'keys'), { mode: 0o777 });
    fs.chmodSync(path.join(dir, 'keys'), 0o777);
    fs.writeFileSync(path.join(dir, 'keys', 'old.key'), 'x');
    fs.chmodSync(path.join(dir, 'keys', 'old.key'), 0o666);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    fs.chmodSync(path.join(dir, 'notes.txt'), 0o644);
    expect(openToOthers(dir).length).toBeGreaterThan(0);

    const app = await buildApp({ config: { ...loadConfig({ DATA_DIR: dir, RETENTION_INTERVAL_SECONDS: '0' }), logLevel: 'silent' }, logger: false });
    try {
      await app.ready();
      // The embedded database wrote its files while the app started and migrated.
      expect(fs.readdirSync(path.join(dir, 'db')).length).toBeGreaterThan(0);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'keys', 'old.key')).mode & 0o777).toBe(0o600);
      expect(openToOthers(dir)).toEqual([]);
    } finally {
      await app.close();
    }
  }, 120_000);
});
