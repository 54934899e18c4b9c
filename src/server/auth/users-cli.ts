import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { StoreStartError } from '../store/open-at-start';
import type { Store } from '../store/store';
import { generatePassword } from './passwords';
import { USERS_COMMAND } from '../users-command';
import {
  addUser,
  disableUser,
  enableUser,
  listUsers,
  ROLES,
  setPassword,
  setRole,
  UserError,
  validName,
  validPassword,
  validRole,
  type User,
} from './users';

/** What `npm run users` touches, given by its entry (src/server/users-cli.ts) or by a test. */
export interface UsersCliIo {
  /** Standard input read to its end, or undefined when it is a terminal (then a password is generated). */
  readStdin: () => Promise<string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** The store, opened and migrated; closed by the command when done. */
  openStore: () => Promise<Store>;
}

/** Who the audit log says changed the users from the command line. */
export const CLI_ACTOR = 'cli';

export const USAGE =
  `usage: ${USERS_COMMAND} add NAME --role ROLE [--generate] | list | disable NAME | enable NAME | role NAME ROLE | ` +
  `password NAME [--generate]   (ROLE: ${ROLES.join(', ')}; the password is read from standard input, ` +
  'or generated and printed once when it is a terminal or with --generate)';

/** Bad usage: exit code 2, like a bad configuration. */
class UsageError extends Error {}

const COMMANDS: Record<string, { names: string[]; options: ('role' | 'generate')[] }> = {
  add: { names: ['NAME'], options: ['role', 'generate'] },
  list: { names: [], options: [] },
  disable: { names: ['NAME'], options: [] },
  enable: { names: ['NAME'], options: [] },
  role: { names: ['NAME', 'ROLE'], options: [] },
  password: { names: ['NAME'], options: ['generate'] },
};

interface Command {
  command: string;
  args: string[];
  role?: string;
  generate: boolean;
}

function parse(argv: string[]): Command | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        role: { type: 'string' },
        generate: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (values.help === true) return 'help';
  const [command, ...args] = positionals;
  if (command === undefined) throw new UsageError('no command given');
  // Own keys only: `toString` is no command.
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (spec === undefined)
    throw new UsageError(
      `unknown command ${JSON.stringify(command)}: use ${Object.keys(COMMANDS).join(', ')}`,
    );
  if (args.length !== spec.names.length) {
    throw new UsageError(
      `${command} takes ${spec.names.length === 0 ? 'no arguments' : spec.names.join(' ')}`,
    );
  }
  for (const option of ['role', 'generate'] as const) {
    if (values[option] !== undefined && !spec.options.includes(option))
      throw new UsageError(`${command} takes no --${option}`);
  }
  if (command === 'add' && values.role === undefined)
    throw new UsageError(`add takes --role (${ROLES.join(', ')})`);
  return { command, args, role: values.role, generate: values.generate === true };
}

/** The password from standard input (one trailing line break dropped), or a generated one. */
async function passwordFor(
  command: Command,
  io: UsersCliIo,
): Promise<{ password: string; generated: boolean }> {
  const input = command.generate ? undefined : await io.readStdin();
  if (input === undefined) return { password: generatePassword(), generated: true };
  const password = input.replace(/\r?\n$/, '');
  if (password === '')
    throw new UserError(
      'invalid',
      'password',
      'standard input is empty: pipe the password in, or use --generate to have one made',
    );
  return { password: validPassword(password), generated: false };
}

const when = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');

function table(users: User[]): string[] {
  if (users.length === 0) return [`No users yet: add one with ${USERS_COMMAND} add NAME --role ROLE`];
  const rows = [
    ['NAME', 'ROLE', 'STATUS', 'CREATED (UTC)'],
    ...users.map((u) => [
      u.name,
      u.role,
      u.disabledAt === null ? 'active' : `disabled ${when(u.disabledAt)}`,
      when(u.createdAt),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length))
      .join('  ')
      .trimEnd(),
  );
}

/** Does the command; returns the name of the user it changed, as stored. */
async function run(
  command: Command,
  store: Store,
  password: string | undefined,
  io: UsersCliIo,
): Promise<string | undefined> {
  const [name = '', role] = command.args;
  switch (command.command) {
    case 'add': {
      const user = await addUser(store.db, { name, role: command.role, password }, CLI_ACTOR);
      io.out(`Added ${user.name} (${user.role}).`);
      return user.name;
    }
    case 'list':
      for (const line of table(await listUsers(store.db))) io.out(line);
      break;
    case 'disable': {
      const user = await disableUser(store.db, name, CLI_ACTOR);
      io.out(`${user.name} is disabled (since ${when(user.disabledAt ?? user.updatedAt)} UTC).`);
      break;
    }
    case 'enable': {
      const user = await enableUser(store.db, name, CLI_ACTOR);
      io.out(`${user.name} may log in again.`);
      break;
    }
    case 'role': {
      const user = await setRole(store.db, name, role, CLI_ACTOR);
      io.out(`${user.name} is ${user.role}.`);
      break;
    }
    case 'password': {
      const user = await setPassword(store.db, name, password, CLI_ACTOR);
      io.out(`Password of ${user.name} changed; their sessions ended.`);
      return user.name;
    }
  }
}

/**
 * `npm run users -- …`: checks the command and its input, opens the store, acts, closes it. Returns
 * the exit code: 0 done, 1 refused or failed (a name taken or unknown, a store that does not
 * answer), 2 bad usage or input (a bad role, name or password, a bad configuration).
 */
export async function usersCli(argv: string[], io: UsersCliIo): Promise<number> {
  let store: Store | undefined;
  try {
    const command = parse(argv);
    if (command === 'help') {
      io.out(USAGE);
      return 0;
    }
    if (command.command === 'add') {
      validName(command.args[0]);
      validRole(command.role);
    }
    if (command.command === 'role') validRole(command.args[1]);
    const secret =
      command.command === 'add' || command.command === 'password'
        ? await passwordFor(command, io)
        : undefined;
    store = await io.openStore();
    const changed = await run(command, store, secret?.password, io);
    if (secret?.generated === true)
      io.out(`Password for ${changed ?? ''} (shown once, not stored): ${secret.password}`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof UserError) {
      io.err(error.message);
      return error.kind === 'invalid' ? 2 : 1;
    }
    if (error instanceof ConfigError || error instanceof StoreStartError) {
      io.err(error.message);
      return error instanceof ConfigError ? 2 : 1;
    }
    throw error;
  } finally {
    await store?.close();
  }
}
