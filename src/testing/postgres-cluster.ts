import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusingUrl } from './fake-upstream';

/** Where Debian's `postgresql` package puts the server binaries, one folder per major version. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

export const INSTALL_HINT =
  "PostgreSQL's server binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql/*/bin/, and the " +
  'store tests run against a real server they start. Install them: apt-get install -y postgresql ' +
  '(as root; .ci/run does it on CI).';

/** The newest installed version's bin folder, or undefined. */
export function findPostgresBin(root = DEBIAN_ROOT): string | undefined {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions
    .map((v) => join(root, v, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')));
}

export interface PostgresCluster {
  /** A superuser's URL of the `postgres` database: create test databases through it. */
  url: string;
  stop: () => void;
}

/**
 * A throwaway PostgreSQL cluster in a temporary folder on a free loopback port, trusted logins,
 * no fsync (its data is thrown away). PostgreSQL refuses to run as root: as root, the folder goes
 * to the `postgres` user and the binaries run as it. `stop()` stops it and removes the folder.
 */
export async function startPostgresCluster(root = DEBIAN_ROOT): Promise<PostgresCluster> {
  const bin = findPostgresBin(root);
  if (bin === undefined) throw new Error(INSTALL_HINT);
  const asRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), 'haulview-pg-'));
  const dataDir = join(folder, 'data');
  const socketDir = join(folder, 'socket');
  mkdirSync(socketDir);
  const log = join(folder, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(folder, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  chmodSync(folder, 0o700);
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    const result = spawnSync(cmd, argv, { encoding: 'utf8', cwd: folder });
    if (result.status !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      throw new Error(
        `${tool} failed (${result.status ?? result.signal}):\n${result.stderr}${result.stdout}${serverLog}`,
      );
    }
  };
  const stop = () => {
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      try {
        run('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      } catch {
        // Already stopped.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', dataDir, '-U', 'haulview', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    // A port free a moment ago: nothing else on this machine races for it in practice.
    const port = new URL(await refusingUrl()).port;
    const settings = [
      `-p ${port}`,
      `-k ${socketDir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    run('pg_ctl', ['start', '-D', dataDir, '-l', log, '-w', '-t', '60', '-o', settings]);
    return { url: `postgres://haulview@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
