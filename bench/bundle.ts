import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure } from './figures';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** A chunk and every chunk it imports statically (what the browser must have before it runs). */
function closure(
  manifest: Record<string, ManifestChunk>,
  keys: string[],
  seen = new Set<string>(),
): Set<string> {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest, manifest[key].imports ?? [], seen);
  }
  return seen;
}

/**
 * The JavaScript of the first screen, gzipped, from a fresh production build with a manifest:
 * the entry and what it imports (before anything shows), the map's chunks (requested as soon as the
 * dispatcher page loads, beside the data) and the basemap data the first view draws.
 */
export function benchBundle(): Figure[] {
  const out = mkdtempSync(join(tmpdir(), 'haulview-bundle-'));
  try {
    execFileSync('npx', ['vite', 'build', '--outDir', out, '--manifest', '--emptyOutDir'], {
      stdio: 'ignore',
    });
    const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const gz = (keys: Iterable<string>) =>
      [...keys].reduce(
        (n, k) =>
          n + gzipSync(readFileSync(join(out, (manifest[k] as ManifestChunk).file)), { level: 9 }).length,
        0,
      );
    const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
    const initial = closure(manifest, ['index.html']);
    const mapKey = Object.keys(manifest).find((k) => k.endsWith('features/dispatcher/fleet-map.tsx'));
    const map = [...closure(manifest, mapKey ? [mapKey] : [])].filter((k) => !initial.has(k));
    const basemapKeys = Object.keys(manifest).filter((k) =>
      /countries-110m|states-10m|north-america-coarse/.test(k),
    );
    const initialKb = kb(gz(initial));
    // Workers are emitted as assets of their own, outside the manifest's chunks.
    const workerFiles = readdirSync(join(out, 'assets')).filter((f) => /^pull-worker.*\.js$/.test(f));
    const workerKb = kb(
      workerFiles.reduce(
        (n, f) => n + gzipSync(readFileSync(join(out, 'assets', f)), { level: 9 }).length,
        0,
      ),
    );
    return [
      {
        figure: `browser: initial JS gzipped (entry and its ${initial.size - 1} imports)`,
        value: initialKb,
        unit: 'kB',
        goal: '<= 130',
        pass: initialKb <= 130,
      },
      {
        figure: "browser: the pull worker's JS gzipped (reads the proxy's answers off the page)",
        value: workerKb,
        unit: 'kB',
        goal: '-',
        pass: workerFiles.length > 0,
      },
      {
        figure: `browser: the map's JS gzipped (Leaflet and layers, ${map.length} chunks, fetched beside the data)`,
        value: kb(gz(map)),
        unit: 'kB',
        goal: '-',
        pass: true,
      },
      {
        figure:
          'browser: basemap data of the first view gzipped (1:110m countries and lakes, US states, provinces)',
        value: kb(gz(basemapKeys)),
        unit: 'kB',
        goal: '-',
        pass: true,
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
