import { build, type BuildOptions } from 'esbuild';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where `npm run build` puts the server: `node dist/server/main.js` runs it. */
export const SERVER_OUTFILE = 'dist/server/main.js';
/** Beside it, `npm run users` for production: `node dist/server/users.js list`. */
export const USERS_OUTFILE = 'dist/server/users.js';
/** And `npm run db:migrate`: `node dist/server/migrate.js`. */
export const MIGRATE_OUTFILE = 'dist/server/migrate.js';

/** The packages a built server imports at run time, each by name: `hono/cookie` is `hono`. */
export interface ServerImports {
  /** Imported when the module loads: production needs each of them. */
  packages: string[];
  /** Imported only on some paths (`vite`, for `--dev`). */
  dynamic: string[];
}

const packageName = (path: string) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/** How the server is bundled; the puller bench bundles its proxy the same way (bench/bundle-child.ts). */
export const SERVER_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  sourcemap: true,
} satisfies BuildOptions;

/**
 * Bundles the server (and the embedded simulator it may start) into one ES module that plain
 * `node` runs, so production needs no TypeScript loader, and the users and migrate commands
 * (`users.js`, `migrate.js`) into others beside it. Packages stay imports, found in node_modules at run time; the `@/` alias is resolved from tsconfig.json. A source map beside it
 * turns stack traces back into `src/` lines under `node --enable-source-maps`.
 */
export async function buildServer(outfile: string = SERVER_OUTFILE): Promise<ServerImports> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      [basename(outfile, '.js')]: 'src/server/main.ts',
      [basename(USERS_OUTFILE, '.js')]: 'src/server/users-cli.ts',
      [basename(MIGRATE_OUTFILE, '.js')]: 'src/server/migrate-cli.ts',
    },
    outdir: dirname(outfile),
    ...SERVER_BUNDLE_OPTIONS,
    metafile: true,
    logLevel: 'warning',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
  const names = (kind: 'import-statement' | 'dynamic-import') => [
    ...new Set(
      imports
        .filter((i) => i.external && i.kind === kind && !i.path.startsWith('node:'))
        .map((i) => packageName(i.path)),
    ),
  ];
  return { packages: names('import-statement'), dynamic: names('dynamic-import') };
}
