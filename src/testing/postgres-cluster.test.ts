import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findPostgresBin, INSTALL_HINT, startPostgresCluster } from './postgres-cluster';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the test cluster’s binaries', () => {
  it('are the newest installed version that has initdb and pg_ctl', () => {
    root = mkdtempSync(join(tmpdir(), 'haulview-pgbin-'));
    const version = (v: string, tools: string[]) => {
      mkdirSync(join(root, v, 'bin'), { recursive: true });
      for (const t of tools) writeFileSync(join(root, v, 'bin', t), '');
    };
    version('9.6', ['initdb', 'pg_ctl']);
    version('15', ['initdb', 'pg_ctl']);
    version('16', ['psql']);
    expect(findPostgresBin(root)).toBe(join(root, '15', 'bin'));
  });

  it('missing, the setup fails saying how to install them: never a silent skip', async () => {
    root = mkdtempSync(join(tmpdir(), 'haulview-pgbin-'));
    expect(findPostgresBin(join(root, 'none'))).toBeUndefined();
    await expect(startPostgresCluster(root)).rejects.toThrow(INSTALL_HINT);
    expect(INSTALL_HINT).toContain('apt-get install -y postgresql');
  });
});
