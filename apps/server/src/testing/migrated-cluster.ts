import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate, migrationsDir, pgliteDb } from '../platform/db.ts';

/**
 * An embedded database with every migration applied and nothing else, made once and kept in the temp folder, for
 * tests to start from. PGlite's initdb is 3-5 s of WASM on a two-core machine and the migrations another 1 s, and
 * every API test file, every browser test's server and every seeded data folder made one afresh: minutes of a CI
 * run. Keyed by PGlite's version and the migrations' text, so a changed or added migration makes a new one (the
 * server's start still runs `migrate`, which finds them applied). Migrating from nothing is still tested: by the
 * PostgreSQL run of the API suites (a new schema each file) and by data-dir.api.test.ts. Made atomically, as
 * several test workers may ask at once.
 */
const pgliteVersion: string = (() => {
  // Its package.json is not among its exports: found beside its entry point (dist/).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
})();

/** Where the migrated cluster is kept: named by PGlite's version and the migrations' text, read once a process. */
const base: string = (() => {
  const hash = crypto.createHash('sha256');
  for (const file of fs.readdirSync(migrationsDir).sort()) hash.update(`${file}\0${fs.readFileSync(path.join(migrationsDir, file), 'utf8')}\0`);
  return path.join(os.tmpdir(), `videomote-migrated-pglite-${pgliteVersion}-${hash.digest('hex').slice(0, 16)}`);
})();

async function migrated(lite: PGlite): Promise<PGlite> {
  await migrate(pgliteDb(lite));
  return lite;
}

/** The migrated cluster as a data folder, copied to `dir` (which must not exist yet) for PGlite or a server to open. */
export async function copyMigratedCluster(dir: string): Promise<void> {
  const template = `${base}.d`;
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) {
    const making = `${template}-${crypto.randomUUID()}`;
    await (await migrated(await PGlite.create(making))).close();
    try {
      fs.renameSync(making, template);
    } catch {
      fs.rmSync(making, { recursive: true, force: true }); // another worker made it first
    }
  }
  fs.cpSync(template, dir, { recursive: true });
}

/** The migrated cluster as PGlite's tarball, for an in-memory database (`loadDataDir`). */
export async function migratedClusterTarball(): Promise<Blob> {
  const file = `${base}.tar`;
  if (!fs.existsSync(file)) {
    const lite = await migrated(await PGlite.create());
    const tarball = await lite.dumpDataDir('none');
    await lite.close();
    const making = `${file}-${crypto.randomUUID()}`;
    fs.writeFileSync(making, Buffer.from(await tarball.arrayBuffer()));
    fs.renameSync(making, file);
  }
  return new Blob([fs.readFileSync(file)]);
}
