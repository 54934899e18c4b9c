import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readProcessEnv } from '@/server/config';
import { openAndMigrate } from '@/server/store/open-at-start';
import { buildServer, SERVER_OUTFILE, type ServerImports } from '../../scripts/server-build';

export interface ProductionInstall {
  /** The folder, laid out as after `npm run build`: dist/index.html, dist/server/main.js, node_modules. */
  dir: string;
  imports: ServerImports;
  /** An embedded store, migrated: each server gets a copy (PGlite's first start costs seconds). */
  dataTemplate: string;
  remove: () => void;
}

/**
 * Builds the server as `npm run build` does, into a fresh folder beside a stand-in SPA, with this
 * checkout's node_modules linked in: what `node dist/server/main.js` finds in production.
 */
export async function productionInstall(): Promise<ProductionInstall> {
  const dir = mkdtempSync(join(tmpdir(), 'haulview-install-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>Haulview</title>');
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  const imports = await buildServer(join(dir, SERVER_OUTFILE));
  const dataTemplate = join(dir, 'data-template');
  const { store } = await openAndMigrate({ dataDir: dataTemplate });
  await store.close();
  return { dir, imports, dataTemplate, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  /** What it printed so far, stdout and stderr together, in order. */
  output: () => string;
  stderr: () => string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output; rejects if it exits or times out first. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  stop: () => Promise<void>;
  /** Sends it a signal, as an orchestrator or a Ctrl-C would. */
  signal: (signal: NodeJS.Signals) => void;
  /** Its process id (its memory is read from /proc by the bench). */
  pid: number | undefined;
}

/**
 * Runs `node dist/server/main.js` in `install` as an operator would, with plain node (no loader)
 * and only PATH from this environment: Haulview's variables are those given, nothing inherited.
 * Unless `env` says where the store is (DATA_DIR, DATABASE_URL), each server gets its own copy of
 * the install's store (DATA_DIR '' is the default, ./data).
 */
export function runBuiltServer(install: ProductionInstall, env: Record<string, string>): ServerProcess {
  const store: Record<string, string> = {};
  if (env.DATA_DIR === undefined && env.DATABASE_URL === undefined) {
    store.DATA_DIR = mkdtempSync(join(install.dir, 'data-'));
    cpSync(install.dataTemplate, store.DATA_DIR, { recursive: true });
  }
  const child = spawn(process.execPath, [SERVER_OUTFILE], {
    cwd: install.dir,
    env: { PATH: readProcessEnv().PATH ?? '', TILE_URL: 'none', SIM_LOADS: '3', ...store, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const heard = () => listeners.forEach((l) => l());
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    heard();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
    heard();
  });
  let running = true;
  const exited = new Promise<number | null>((done) =>
    // 'close', not 'exit': by then all it printed has been read.
    child.on('close', (code) => {
      running = false;
      heard();
      done(code);
    }),
  );
  return {
    output: () => output,
    stderr: () => stderr,
    exited,
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise((found, fail) => {
        let timedOut = false;
        const settle = () => {
          const match = output.match(pattern);
          if (!match && running && !timedOut) return;
          clearTimeout(timer);
          listeners.delete(settle);
          if (match) found(match);
          else fail(new Error(`${pattern} not printed (${running ? 'timed out' : 'exited'}):\n${output}`));
        };
        const timer = setTimeout(() => {
          timedOut = true;
          settle();
        }, timeoutMs);
        listeners.add(settle);
        settle();
      }),
    stop: async () => {
      if (running) child.kill('SIGTERM');
      await exited;
    },
    signal: (signal) => void child.kill(signal),
    pid: child.pid,
  };
}
