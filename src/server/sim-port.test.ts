import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberedSimPort, rememberSimPort, SIM_PORT_FILE } from './sim-port';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'haulview-sim-port-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the simulator's port kept in DATA_DIR", () => {
  it('is none before a first start, then the port kept, in a DATA_DIR made if missing', () => {
    const dataDir = join(freshDir(), 'data');
    expect(rememberedSimPort(dataDir)).toBeUndefined();
    expect(rememberSimPort(dataDir, 43_117)).toBeUndefined();
    expect(rememberedSimPort(dataDir)).toBe(43_117);
  });

  it('is none when the file holds no port', () => {
    const dataDir = freshDir();
    for (const text of ['', 'abc', '0', '70000', '8081 8082', '-5']) {
      writeFileSync(join(dataDir, SIM_PORT_FILE), text);
      expect(rememberedSimPort(dataDir), text).toBeUndefined();
    }
  });

  it('says why when it cannot be kept', () => {
    const file = join(freshDir(), 'a-file');
    writeFileSync(file, '');
    expect(rememberSimPort(join(file, 'data'), 43_117)).toMatch(/EEXIST|ENOTDIR/);
  });
});
