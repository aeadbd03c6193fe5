import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (personal data) and the key that encrypts personnummer. It is made private
 * to the server's user at every start, whatever an earlier version, a backup restore or an operator's `cp` left
 * there: the folder and everything under it lose all group and other permissions, and this process creates its
 * files with umask 077 from then on. The folder's own 0700 is what counts: nothing under it is reachable by
 * others, even a file some library creates with an explicit 0666.
 */
export function secureDataDir(dir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      // A symbolic link's own mode means nothing, and following it could change files outside DATA_DIR.
      if (entry.isSymbolicLink()) continue;
      const mode = fs.statSync(full).mode & 0o7777;
      if (mode & 0o077) fs.chmodSync(full, mode & ~0o077 & 0o700);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
}
