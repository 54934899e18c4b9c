// `npm test`: every check, in order, then one summary line of all suites: `N passed, N failed`.
// Static checks count as one test each; Vitest and Playwright count their tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

interface Tally {
  name: string;
  passed: number;
  failed: number;
}

const tallies: Tally[] = [];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n> ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name: string, cmd: string, args: string[]): boolean {
  const ok = run(cmd, args);
  tallies.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  return ok;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

check('lockfile', 'npx', ['tsx', 'scripts/check-lock.ts']);
check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
check('eslint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('prettier', 'npx', ['prettier', '--check', '.']);

// Unit and integration tests (Vitest): jsdom for web/, node for the rest.
const vitestOut = '.vitest-results.json';
rmSync(vitestOut, { force: true });
const vitestOk = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestOut}`,
]);
const vitest = readJson(vitestOut) as
  | { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number; numTodoTests?: number }
  | undefined;
if (vitest && typeof vitest.numPassedTests === 'number') {
  const failed = (vitest.numFailedTests ?? 0) + (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  tallies.push({
    name: 'vitest',
    passed: vitest.numPassedTests,
    failed: failed + (vitestOk || failed > 0 ? 0 : 1),
  });
} else {
  tallies.push({ name: 'vitest', passed: 0, failed: 1 });
}

// The browser suite drives the production build in Debian's Chromium.
const built = check('build', 'npx', ['vite', 'build']);
const chromium = built && run('npx', ['tsx', 'scripts/ensure-chromium.ts']);
if (chromium) {
  const pwOut = '.playwright-results.json';
  rmSync(pwOut, { force: true });
  const pwOk = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut,
  });
  const pw = (existsSync(pwOut) ? readJson(pwOut) : undefined) as
    { stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number } } | undefined;
  if (pw?.stats) {
    const failed = (pw.stats.unexpected ?? 0) + (pw.stats.flaky ?? 0) + (pw.stats.skipped ?? 0);
    tallies.push({
      name: 'e2e',
      passed: pw.stats.expected ?? 0,
      failed: failed + (pwOk || failed > 0 ? 0 : 1),
    });
  } else {
    tallies.push({ name: 'e2e', passed: 0, failed: 1 });
  }
} else {
  tallies.push({ name: 'e2e', passed: 0, failed: 1 });
}

console.log('\nSuites:');
for (const t of tallies) console.log(`  ${t.name.padEnd(10)} ${t.passed} passed, ${t.failed} failed`);
const passed = tallies.reduce((n, t) => n + t.passed, 0);
const failed = tallies.reduce((n, t) => n + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
