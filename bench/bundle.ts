import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure } from './figures';

/** The JavaScript the first screen loads (the entry and its preloaded chunks), gzipped. */
export function benchBundle(): Figure[] {
  if (!existsSync('dist/index.html')) execSync('npx vite build', { stdio: 'ignore' });
  const html = readFileSync('dist/index.html', 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
  const gz = files.reduce((n, f) => n + gzipSync(readFileSync(join('dist', f)), { level: 9 }).length, 0);
  const kb = Math.round(gz / 102.4) / 10;
  return [
    {
      figure: `browser: initial JS gzipped (${files.length} files)`,
      value: kb,
      unit: 'kB',
      goal: '<= 150',
      pass: kb <= 150,
    },
  ];
}
