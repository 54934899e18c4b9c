import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'haulview-lock-')), 'data');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const lockFile = () => join(dir, 'haulview.lock');

describe('the DATA_DIR lock', () => {
  it('creates the folder and holds it with its pid until released', () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    lockDataDir(dir).release();
  });

  it('refuses a folder a running process holds: one line naming DATA_DIR and the pid', () => {
    const other = spawn('sleep', ['30']);
    try {
      lockDataDir(dir).release();
      writeFileSync(lockFile(), `${other.pid}\n`);
      let error: unknown;
      try {
        lockDataDir(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DataDirInUseError);
      const message = (error as Error).message;
      expect(message).toMatch(
        new RegExp(`^DATA_DIR=${dir} is in use by another process \\(pid ${other.pid}\\): `),
      );
      expect(message).not.toContain('\n');
      // Its lock is left alone.
      expect(readFileSync(lockFile(), 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock whose process is gone', () => {
    const gone = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    lockDataDir(dir).release();
    writeFileSync(lockFile(), `${gone}\n`);
    const lock = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('takes over a lock file that holds no pid (a crash while writing it)', () => {
    lockDataDir(dir).release();
    writeFileSync(lockFile(), '');
    lockDataDir(dir).release();
  });
});
