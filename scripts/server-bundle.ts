import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

/**
 * The server (apps/server/src/server.ts, `npm start`'s entry point) as one ES module file, for the browser tests
 * and the local cluster, which start servers dozens of times a run. Through tsx each start imports ~140 TypeScript
 * modules one by one: 2-3 s of a two-core machine; the bundle loads in well under a second. Same sources, compiled
 * by esbuild as tsx compiles them; npm packages are left to node to resolve, as when run from source, and each
 * module's `import.meta.url` stays its source file's, so paths beside the sources (migrations, the web build)
 * resolve as before.
 *
 * Built once per change: the file is named by the sources' paths, sizes and modification times, so an edited
 * source is always rebuilt, and made atomically, as several test workers may ask at once.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDirs = ['apps/server/src', ...fs.readdirSync(path.join(root, 'packages')).map((p) => `packages/${p}/src`)];
const cacheDir = path.join(root, 'node_modules', '.cache', 'videomote-server');

let built: Promise<string> | null = null;

/** The bundle's path (made if missing), to run as `node <path>`. */
export function serverBundle(): Promise<string> {
  built ??= make().catch((err: unknown) => {
    built = null;
    throw err;
  });
  return built;
}

async function make(): Promise<string> {
  const file = path.join(cacheDir, `server-${sourcesKey()}.mjs`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(cacheDir, { recursive: true });
  const making = `${file}-${crypto.randomUUID()}.mjs`;
  await build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile: making,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'warning',
    plugins: [
      {
        name: 'videomote-sources',
        setup(b) {
          // npm packages stay imports (only our workspace packages are bundled, as their sources).
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@videomote/') ? undefined : { path: args.path, external: true }));
          b.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: fs.readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  fs.renameSync(making, file);
  // Bundles of sources since changed are of no more use (kept a while: another run may still be starting one).
  for (const old of fs.readdirSync(cacheDir)) {
    const stale = path.join(cacheDir, old);
    if (stale !== file && Date.now() - fs.statSync(stale).mtimeMs > 3_600_000) fs.rmSync(stale, { force: true });
  }
  return file;
}

/** What the bundle is made of: every source file's path, size and modification time, and esbuild's version. */
function sourcesKey(): string {
  const hash = crypto.createHash('sha256').update(esbuildVersion);
  for (const dir of sourceDirs) {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) continue;
    for (const entry of fs.readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      const { size, mtimeMs } = fs.statSync(file);
      hash.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}
