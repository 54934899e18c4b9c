import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestStore } from '@/testing/test-store';
import type { Store } from '../store/store';
import { verifyPassword } from './passwords';
import { usersCli } from './users-cli';
import { findCredentials } from './users';

// The command's logic in process, on one store it shares (the process itself, on PGlite, is tested
// in src/server/users-cli.test.ts).
let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await openMigratedTestStore('postgres'));
}, 60_000);
afterAll(() => close?.());

/** Runs the command with `stdin` as its standard input (undefined: a terminal). */
async function run(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  let opened = 0;
  const code = await usersCli(argv, {
    readStdin: async () => stdin,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    openStore: async () => {
      opened++;
      return { ...store, close: async () => {} };
    },
  });
  return { code, out: out.join('\n'), err: err.join('\n'), opened };
}

const hashOf = async (name: string) => (await findCredentials(store.db, name))?.passwordHash ?? '';

describe('npm run users', () => {
  it('adds a user with a generated password, printed once, when standard input is a terminal', async () => {
    const { code, out } = await run(['add', 'ana', '--role', 'admin']);
    expect(code).toBe(0);
    const [added, shown, ...rest] = out.split('\n');
    expect(added).toBe('Added ana (admin).');
    const password = /^Password for ana \(shown once, not stored\): ([A-Za-z0-9_-]{24})$/.exec(
      shown ?? '',
    )?.[1];
    expect(password).toBeDefined();
    expect(rest).toEqual([]);
    expect(await verifyPassword(password!, await hashOf('ana'))).toBe(true);
  });

  it('reads the password from standard input, dropping one line break; --generate makes one anyway', async () => {
    expect((await run(['add', 'bo', '--role=broker'], 'correct horse battery\n')).code).toBe(0);
    expect(await verifyPassword('correct horse battery', await hashOf('bo'))).toBe(true);
    expect((await run(['password', 'bo'], 'another long password\r\n')).out).toBe(
      'Password of bo changed; their sessions ended.',
    );
    expect(await verifyPassword('another long password', await hashOf('bo'))).toBe(true);
    const generated = await run(['password', 'BO', '--generate'], 'ignored because of --generate');
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(/\nPassword for bo \(shown once, not stored\): [A-Za-z0-9_-]{24}$/);
  });

  it('lists the users with role and status, never a hash', async () => {
    expect((await run(['role', 'bo', 'dispatcher'])).out).toBe('bo is dispatcher.');
    // Disabling the last active admin would leave nobody to manage the users.
    const last = await run(['disable', 'ana']);
    expect(last.code).toBe(2);
    expect(last.err).toContain('"ana" is the last active admin: add another first');
    expect((await run(['disable', 'bo'])).out).toMatch(
      /^bo is disabled \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
    );
    const { code, out } = await run(['list']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^NAME +ROLE +STATUS +CREATED \(UTC\)$/);
    expect(lines[1]).toMatch(/^ana +admin +active +\d{4}-/);
    expect(lines[2]).toMatch(/^bo +dispatcher +disabled \d{4}-\d\d-\d\d \d\d:\d\d +\d{4}-/);
    expect(out).not.toContain('scrypt');
    const actors = await store.db.selectFrom('audit_log').select('actor').distinct().execute();
    expect(actors).toEqual([{ actor: 'cli' }]);
  });

  it('refuses bad usage with exit code 2 and one line saying why, before opening the store', async () => {
    const cases: [string[], string][] = [
      [[], 'no command given'],
      [['frob'], 'unknown command "frob": use add, list, disable, enable, role, password'],
      [['toString'], 'unknown command "toString": use add, list, disable, enable, role, password'],
      [['add', 'cy'], 'add takes --role (dispatcher, broker, admin)'],
      [['add', 'cy', '--role', 'owner'], 'role: must be one of dispatcher, broker, admin'],
      [['add', '', '--role', 'broker'], 'name: must be 1 to 64 characters (got 0)'],
      [['list', 'everyone'], 'list takes no arguments'],
      [['disable'], 'disable takes NAME'],
      [['role', 'bo', 'root'], 'role: must be one of dispatcher, broker, admin'],
      [['disable', 'bo', '--role', 'admin'], 'disable takes no --role'],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv, 'a long enough password');
      expect(result, argv.join(' ')).toMatchObject({ code: 2, opened: 0 });
      expect(result.err.split('\n')[0]).toBe(message);
    }
    expect((await run(['list', '--bogus'])).err).toMatch(/^Unknown option '--bogus'/);
    expect(await run(['add', 'cy', '--role', 'broker'], '')).toMatchObject({
      code: 2,
      err: 'password: standard input is empty: pipe the password in, or use --generate to have one made',
    });
    expect(await run(['password', 'bo'], 'short\n')).toMatchObject({
      code: 2,
      err: 'password: must be at least 12 characters',
      opened: 0,
    });
    expect(await run(['password', 'bo'], 'two\nlines of a password\n')).toMatchObject({
      code: 2,
      err: 'password: must not hold control characters (line breaks, tabs)',
    });
    expect(await run(['--help'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^usage: npm run users/),
    });
  });

  it('refuses a name taken or unknown with exit code 1', async () => {
    expect(await run(['add', 'ANA', '--role', 'broker'], 'a long enough password')).toMatchObject({
      code: 1,
      err: 'name: a user named "ana" already exists (names that differ only in case are one)',
    });
    for (const argv of [
      ['disable', 'zed'],
      ['role', 'zed', 'admin'],
      ['password', 'zed', '--generate'],
    ])
      expect(await run(argv)).toMatchObject({ code: 1, err: 'name: no user named "zed"', out: '' });
  });
});
