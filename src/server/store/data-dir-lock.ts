import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A second process on the same DATA_DIR: said in one line, not a crash. */
export class DataDirInUseError extends Error {}

/** Folders this process holds: opening one twice is the same mistake as two processes doing it. */
const held = new Set<string>();

const LOCK_FILE = 'haulview.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is another user's.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Takes `dir` for this process: an exclusive lock file holding its pid. PGlite does not guard its
 * folder, and two processes writing one cluster's files would corrupt it. A lock left by a process
 * that died (its pid no longer runs) is taken over. Throws DataDirInUseError when it is held.
 */
export function lockDataDir(dir: string): { release: () => void } {
  const folder = resolve(dir);
  const path = join(folder, LOCK_FILE);
  const inUse = (by: string) =>
    new DataDirInUseError(
      `DATA_DIR=${dir} is in use by ${by}: stop it, or set DATA_DIR to another folder ` +
        `(or DATABASE_URL, to share a PostgreSQL server). If nothing uses it, delete ${path}.`,
    );
  if (held.has(folder)) throw inUse('this process already');
  mkdirSync(folder, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      // Another process took it over at the same moment.
      if (attempt >= 2) throw inUse('another process');
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch {
      // Gone since: try again.
    }
    // Our own pid in a lock we do not hold is a previous life's (a container restarted as pid 1).
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
      throw inUse(`another process (pid ${holder})`);
    rmSync(path, { force: true });
  }
  held.add(folder);
  return {
    release: () => {
      if (!held.delete(folder)) return;
      try {
        if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}
