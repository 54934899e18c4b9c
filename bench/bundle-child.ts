// The proxy's benchmark child built as `npm run build` builds the server (scripts/server-build.ts),
// so that its memory is production's: plain `node`, no TypeScript loader, no simulator code.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_BUNDLE_OPTIONS } from '../scripts/server-build';

export interface BundledChild {
  /** The bundle's entry, for `startChild`'s `bundle`. */
  entry: string;
  /** Module paths in the bundle from the simulator (none expected: the proxy runs without it). */
  simulatorModules: string[];
  remove: () => void;
}

/** Bundles `root`'s bench/proxy-child.ts into a temporary folder (never dist/ or the checkout). */
export async function bundleProxyChild(root: string = process.cwd()): Promise<BundledChild> {
  const outdir = mkdtempSync(join(tmpdir(), 'haulview-bench-proxy-'));
  // Packages stay imports, found in node_modules beside the bundle as they are beside dist/server/.
  symlinkSync(join(root, 'node_modules'), join(outdir, 'node_modules'));
  try {
    const result = await build({
      ...SERVER_BUNDLE_OPTIONS,
      absWorkingDir: root,
      entryPoints: { 'proxy-child': 'bench/proxy-child.ts' },
      outdir,
      metafile: true,
      logLevel: 'warning',
    });
    return {
      entry: join(outdir, 'proxy-child.js'),
      simulatorModules: Object.keys(result.metafile.inputs).filter((p) => p.startsWith('src/simulator/')),
      remove: () => rmSync(outdir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}
