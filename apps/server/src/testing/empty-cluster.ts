import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * An empty embedded database (PGlite's initdb done, nothing else) made once and kept in the temp folder, for tests
 * to start from. initdb is seconds of WASM on a two-core machine (3-5 s, measured), and every API test file, every
 * browser test's server and every seeded data folder made one afresh: minutes of a CI run. What the tests start
 * from is the same as before; every migration still runs on each database. Keyed by PGlite's version; made
 * atomically, as several test workers may ask at once.
 */
const pgliteVersion: string = (() => {
  // Its package.json is not among its exports: found beside its entry point (dist/).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
})();
const base = path.join(os.tmpdir(), `videomote-empty-pglite-${pgliteVersion}`);

/** The empty cluster as a data folder, copied to `dir` (which must not exist yet) for PGlite or a server to open. */
export async function copyEmptyCluster(dir: string): Promise<void> {
  const template = `${base}.d`;
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) {
    const making = `${template}-${crypto.randomUUID()}`;
    await (await PGlite.create(making)).close();
    try {
      fs.renameSync(making, template);
    } catch {
      fs.rmSync(making, { recursive: true, force: true }); // another worker made it first
    }
  }
  fs.cpSync(template, dir, { recursive: true });
}

/** The empty cluster as PGlite's tarball, for an in-memory database (`loadDataDir`). */
export async function emptyClusterTarball(): Promise<Blob> {
  const file = `${base}.tar`;
  if (!fs.existsSync(file)) {
    const lite = await PGlite.create();
    const tarball = await lite.dumpDataDir('none');
    await lite.close();
    const making = `${file}-${crypto.randomUUID()}`;
    fs.writeFileSync(making, Buffer.from(await tarball.arrayBuffer()));
    fs.renameSync(making, file);
  }
  return new Blob([fs.readFileSync(file)]);
}
