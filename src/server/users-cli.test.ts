import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProcessEnv } from './config';

// `npm run users` as an operator runs it: a process on an embedded store in DATA_DIR, the password
// on its standard input. Few runs: each one starts PGlite. The commands' cases are in
// src/server/auth/users-cli.test.ts.
const dataDir = mkdtempSync(join(tmpdir(), 'haulview-users-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function users(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/users-cli.ts', ...args], {
    env: { PATH: readProcessEnv().PATH ?? '', DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A command refused before it reads its input closes the pipe: that is no error of the test's.
  child.stdin.on('error', () => {});
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run users, as a process', () => {
  it('adds a user, lists it without its hash, refuses a bad role (2) and a name taken (1)', async () => {
    expect(await users(['add', 'ana', '--role', 'broker'], 'a long enough password\n')).toEqual({
      code: 0,
      stdout: 'Added ana (broker).\n',
      stderr: '',
    });
    const list = await users(['list']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(
      /^NAME +ROLE +STATUS +CREATED \(UTC\)\nana +broker +active +\d{4}-\d\d-\d\d \d\d:\d\d\n$/,
    );
    expect(list.stdout).not.toContain('scrypt');
    const badRole = await users(['add', 'bo', '--role', 'owner'], 'a long enough password\n');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toBe('role: must be one of dispatcher, broker, admin\n');
    const taken = await users(['add', 'Ana', '--role', 'admin'], 'a long enough password\n');
    expect(taken).toMatchObject({ code: 1, stdout: '' });
    expect(taken.stderr).toBe(
      'name: a user named "ana" already exists (names that differ only in case are one)\n',
    );
  }, 60_000);
});
