import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { productionNodeFlags } from './processes';

const withStart = (start: string) => JSON.stringify({ scripts: { start } });

describe('productionNodeFlags', () => {
  it("reads the flags npm start gives node, each release's own", () => {
    expect(
      productionNodeFlags(
        withStart(
          'npm run build && MALLOC_MMAP_THRESHOLD_=131072 node --enable-source-maps dist/server/main.js',
        ),
      ),
    ).toEqual(['--enable-source-maps']);
    expect(
      productionNodeFlags(
        withStart('npm run build && node --a-flag=25 --enable-source-maps dist/server/main.js'),
      ),
    ).toEqual(['--a-flag=25', '--enable-source-maps']);
    expect(productionNodeFlags(withStart('node dist/server/main.js'))).toEqual([]);
  });

  it("reads this checkout's package.json", () => {
    expect(productionNodeFlags(readFileSync('package.json', 'utf8'))).toContain('--enable-source-maps');
  });

  it('refuses a start it cannot read, rather than run the bench without its flags', () => {
    expect(() => productionNodeFlags(withStart('tsx src/server/main.ts'))).toThrow(/npm start/);
  });
});
