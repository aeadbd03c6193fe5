import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the media benches' web build goes (shared with `npm run bench`, which builds it once). */
export const WEB_DIST = process.env.WEB_DIST || path.join(os.tmpdir(), 'videomote-bench-web');

/** Whether this process already runs inside the private network namespace `runInPrivateNetns` made. */
export const insidePrivateNetns = (): boolean => Boolean(process.env.VIDEOMOTE_BENCH_NETNS);

/**
 * Outside the namespace: builds the web (the build needs no network; skipped when WEB_DIST is given), then runs the
 * bench script again inside a fresh private network namespace (scripts/in-netns.sh: loopback plus a device holding
 * 127.0.0.2, since Janus never gathers on a loopback interface) and exits with its status. Needs root.
 */
export function runInPrivateNetns(scriptUrl: string, args: string[]): never {
  if (!process.env.WEB_DIST) {
    const build = spawnSync('npx', ['vite', 'build', '--config', 'apps/web/vite.config.ts', 'apps/web', '--outDir', WEB_DIST, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const run = spawnSync(
    'unshare',
    ['--net', 'bash', 'scripts/in-netns.sh', 'env', 'VIDEOMOTE_BENCH_NETNS=1', `WEB_DIST=${WEB_DIST}`, process.execPath, '--import', 'tsx', fileURLToPath(scriptUrl), ...args],
    { cwd: root, stdio: 'inherit' },
  );
  if (run.error) console.error(`Could not make a network namespace (needs root and unshare): ${run.error.message}`);
  process.exit(run.status ?? 1);
}
