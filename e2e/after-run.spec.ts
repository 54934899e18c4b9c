import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { secretsIn } from './support/credentials';
import { E2E_SERVER_LOG } from './support/server-log';

// Runs after every other spec (the `after-run` project depends on `app`): the log holds the whole run.
test('no line the e2e server logged during the whole run carries a secret', () => {
  const lines = readFileSync(E2E_SERVER_LOG, 'utf8').split('\n').filter(Boolean);
  // The log is the real one: start-up lines and one line per request, pulls and webhooks among them.
  expect(lines.some((l) => l.startsWith('Haulview: http://127.0.0.1:'))).toBe(true);
  const paths = new Set(
    lines.flatMap((l) => (l.startsWith('{') ? [(JSON.parse(l) as { path: string }).path] : [])),
  );
  expect([...paths]).toEqual(
    expect.arrayContaining(['/api/pull/by-external-id', '/api/pull/by-load-number', '/api/webhooks']),
  );
  expect(lines.filter((l) => secretsIn(l).length > 0)).toEqual([]);
  // Nor any bearer token (a JWT): the simulator's demo webhook token, or one a browser sent.
  expect(lines.filter((l) => /eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(l))).toEqual([]);
});
