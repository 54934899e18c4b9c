import { fork, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_CREDENTIALS } from '@/testing/stack';

export type ChildRole =
  | {
      kind: 'simulators';
      count: number;
      seed: number;
      loads: number;
      credentials: typeof TEST_CREDENTIALS;
      /** A clock that stands still at this instant, so that two pulls at different times read the same tracks. */
      frozenAt?: number;
      /** Every load on a long trip with this many pings so far (FleetOptions.tripPings). */
      tripPings?: number;
    }
  | {
      kind: 'proxy';
      upstreamUrl: string;
      env: Record<string, string>;
      credentials: typeof TEST_CREDENTIALS;
    };

export type ChildRequest =
  | { type: 'stats'; gc: boolean }
  /** With `heap`, allocations are sampled too (written beside the CPU profile as a .heapprofile). */
  | { type: 'profile-start'; heap?: boolean; survivorsOnly?: boolean }
  | { type: 'profile-stop'; file: string }
  | { type: 'close' }
  /** Moves the simulators' frozen clock on. */
  | { type: 'advance'; ms: number };
export interface ChildReady {
  urls: string[];
  ids: string[];
}
export interface ChildStats {
  /** CPU time the process used since it started (user + system). */
  cpuMs: number;
  /** Of which in the kernel (system calls: the sockets). */
  systemMs: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory of C++ objects bound to JS ones (Buffers among them), and of ArrayBuffers alone. */
  external: number;
  arrayBuffers: number;
  /** V8's heap by space: the bytes it holds (`heapTotal` in all) and those in use. */
  spaces?: Record<string, { size: number; used: number }>;
  /** Largest resident set since the process started. */
  maxRss: number;
  /** Durations (ms) of the garbage collections since the previous stats. */
  gcPauses: number[];
  /** The event loop's lateness since the previous stats. */
  loopDelayMs: { p99: number; max: number };
  /**
   * Time the event loop's thread spent runnable but waiting for a core since the process started
   * (Linux's schedstat; 0 elsewhere), and how often the kernel took a core from the process.
   */
  waitedForCoreMs: number;
  involuntarySwitches: number;
}

export interface Child extends ChildReady {
  /** The child's process id (its /proc entry, for RSS sampled from outside). */
  pid: number;
  /** CPU time and memory; with `gc`, after a full collection (what it holds, not what awaits collection). */
  stats: (gc: boolean) => Promise<ChildStats>;
  /**
   * Starts a CPU profile of the process; `stop` writes it to `file` (a .cpuprofile), and with `heap`
   * the allocations sampled meanwhile beside it (the same name, .heapprofile).
   */
  profile: (o?: { heap?: boolean; survivorsOnly?: boolean }) => { stop: (file: string) => Promise<void> };
  /** Simulators with a frozen clock: moves it on by `ms`. */
  advance: (ms: number) => Promise<void>;
  close: () => Promise<void>;
}

const entry = fileURLToPath(new URL('./serve-child.ts', import.meta.url));

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type?: string }) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => reject(new Error(`benchmark child exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface ChildOptions {
  /**
   * The proxy bundled as production runs it (bench/bundle-child.ts): run by plain `node` with
   * production's flags, not under the parent's TypeScript loader.
   */
  bundle?: string;
  /** Variables of the child's process environment (read by node or the C library at start); undefined unsets one. */
  processEnv?: Record<string, string | undefined>;
}

function withVariables(
  env: NodeJS.ProcessEnv,
  variables: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  const result = { ...env };
  for (const [name, value] of Object.entries(variables))
    if (value === undefined) delete result[name];
    else result[name] = value;
  return result;
}

/**
 * The Node flags `npm start` gives the built server in that checkout (its package.json's `start`),
 * so that a bundled child, this checkout's or a previous release's, runs as that release runs.
 */
export function productionNodeFlags(packageJson: string): string[] {
  const start = (JSON.parse(packageJson) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const flags = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/server\/main\.js/.exec(start)?.[1]?.trim();
  if (flags === undefined) throw new Error(`no \`node … dist/server/main.js\` in npm start: ${start}`);
  return flags.split(/\s+/).filter(Boolean);
}

/** Proxies started so far: each one's stdout file is numbered. */
let proxiesStarted = 0;

/**
 * Starts simulators or the proxy in a process of their own (the TypeScript loader the parent runs
 * under is inherited unless `bundle`), so the load generator, the proxy and the upstream do not share
 * one event loop.
 */
export async function startChild(role: ChildRole, root?: string, options: ChildOptions = {}): Promise<Child> {
  // Another checkout's code (a previous release), run by this checkout's child entry copied there.
  const script = options.bundle ?? (root ? join(root, 'bench', 'serve-child.ts') : entry);
  const child = fork(script, [JSON.stringify(role)], {
    ...(root ? { cwd: root } : {}),
    ...(options.processEnv ? { env: withVariables(process.env, options.processEnv) } : {}),
    execArgv: [
      ...(options.bundle
        ? productionNodeFlags(readFileSync(join(root ?? process.cwd(), 'package.json'), 'utf8'))
        : process.execArgv),
      '--expose-gc',
      // A variant's own flags (`BENCH_PULLER_BESIDE='BENCH_PROXY_NODE_FLAGS=…'`) before the run's.
      ...(role.kind === 'proxy'
        ? (options.processEnv?.BENCH_PROXY_NODE_FLAGS ?? process.env.BENCH_PROXY_NODE_FLAGS ?? '')
            .split(' ')
            .filter(Boolean)
        : []),
    ],
    // The request log goes to /dev/null, as cheap as a production log file; errors still show.
    // `BENCH_PROXY_STDOUT=<file>` keeps each proxy's stdout in <file>.1, .2… instead (what `--trace-gc` writes).
    stdio: [
      'ignore',
      role.kind === 'proxy' && process.env.BENCH_PROXY_STDOUT
        ? openSync(`${process.env.BENCH_PROXY_STDOUT}.${++proxiesStarted}`, 'a')
        : 'ignore',
      'inherit',
      'ipc',
    ],
  });
  const ready = await nextMessage<ChildReady>(child, 'ready');
  return {
    pid: child.pid as number,
    urls: ready.urls,
    ids: ready.ids,
    stats: (gc) => {
      const answer = nextMessage<ChildStats>(child, 'stats');
      child.send({ type: 'stats', gc } satisfies ChildRequest);
      return answer;
    },
    profile: (o) => {
      child.send({
        type: 'profile-start',
        heap: o?.heap,
        survivorsOnly: o?.survivorsOnly,
      } satisfies ChildRequest);
      return {
        stop: async (file) => {
          const written = nextMessage(child, 'profiled');
          child.send({ type: 'profile-stop', file } satisfies ChildRequest);
          await written;
        },
      };
    },
    advance: async (ms) => {
      const moved = nextMessage(child, 'advanced');
      child.send({ type: 'advance', ms } satisfies ChildRequest);
      await moved;
    },
    close: () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close' } satisfies ChildRequest);
      return exited;
    },
  };
}
